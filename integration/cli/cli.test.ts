// The built CLI as a black box: stdout, stderr and exit code checked separately.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { PROVEN_CLIENTS } from '../../src/harness/proven-clients.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const CID = '019f5453-de22-7240-b2e5-0d32692aa6d9';

describe('fleetcom as a command', () => {
  it('prints its version', async () => {
    const sb = await useSandbox();
    const r = await runCli(['--version'], { env: sb.env, cwd: sb.dir });
    expect(r).toEqual({ stdout: '0.1.0\n', stderr: '', exitCode: 0 });
  });

  it('shows help with examples', async () => {
    const sb = await useSandbox();
    const r = await runCli(['--help'], { env: sb.env, cwd: sb.dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('\nSessions:\n');
    // The guide it names is there: docs/ beside package.json.
    const guide = /\nGuide: (\S+)\n$/.exec(r.stdout)?.[1];
    expect(guide && existsSync(guide), guide).toBe(true);
    for (const cmd of ['up', 'run', 'ls', 'rerun', 'explain']) {
      const sub = await runCli([cmd, '--help'], { env: sb.env, cwd: sb.dir });
      expect(sub.stdout, cmd).toContain('Examples:');
    }
  });

  it('ends quietly when its reader stops early (fleetcom --help | head -1: EPIPE on its later writes)', async () => {
    const sb = await useSandbox();
    const r = spawnSync('sh', ['-c', '"$@" | head -1', 'sh', process.execPath, cliPath, '--help'], { env: sb.env, cwd: sb.dir, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('Usage: fleetcom <command> [options]\n');
  });

  it.each([
    [['--bogus'], "fleetcom: unknown option '--bogus'\ntry 'fleetcom --help'\n"],
    [['nope'], "fleetcom: unknown command 'nope'\ntry 'fleetcom --help'\n"],
    [['ls', '--jsn'], "fleetcom: unknown option '--jsn' (did you mean '--json'?)\ntry 'fleetcom ls --help'\n"],
    [['rerurn', '3'], "fleetcom: unknown command 'rerurn' (did you mean 'rerun'?)\ntry 'fleetcom --help'\n"],
    [['help', 'rerurn'], "fleetcom: unknown command 'rerurn' (did you mean 'rerun'?)\ntry 'fleetcom --help'\n"],
    [['ls', '--json', 'x'], "fleetcom: too many arguments for 'ls'. Expected 0 arguments but got 1.\ntry 'fleetcom ls --help'\n"],
    [['ls', 'x'], "fleetcom: too many arguments for 'ls'. Expected 0 arguments but got 1.\ntry 'fleetcom ls --help'\n"],
    [['up', '--headless'], "fleetcom: --headless runs only inside tmux (the supervisor needs a pane)\ntry 'fleetcom --help'\n"],
    [['rerun'], "fleetcom: rerun needs a TASK outside tmux (or --pane %N / --window @N)\ntry 'fleetcom --help'\n"],
    [['rerun', '3', '--pane', '%1'], "fleetcom: rerun takes one of TASK, --pane or --window\ntry 'fleetcom --help'\n"],
  ])('rejects %j with exit 2', async (args, stderr) => {
    const sb = await useSandbox();
    const r = await runCli(args, { env: sb.env, cwd: sb.dir });
    expect(r).toEqual({ stdout: '', stderr, exitCode: 2 });
  });

  it.each([[['run', '--', 'true']], [['ls']], [['ls', '--json']]])('exits 3 when no fleet runs: %j', async (args) => {
    const sb = await useSandbox();
    const r = await runCli(args, { env: sb.env, cwd: sb.dir });
    expect(r).toEqual({ stdout: '', stderr: 'fleetcom: no fleet is running (start one with: fleetcom up)\n', exitCode: 3 });
  });

  it("still takes the rerun key's --from-key of an older fleetcom (the flag changes nothing)", async () => {
    const sb = await useSandbox();
    const r = await runCli(['rerun', '--from-key', '--pane', '%1'], { env: sb.env, cwd: sb.dir });
    expect(r).toEqual({ stdout: '', stderr: 'fleetcom: no fleet is running (start one with: fleetcom up)\n', exitCode: 3 });
  });

  describe('explain', () => {
    it('explains a bare claude with its pin and placeholders', async () => {
      const sb = await useSandbox();
      const r = await runCli(['explain', '--json', '--', 'claude'], { env: sb.env, cwd: sb.dir });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe('');
      const e = JSON.parse(r.stdout);
      expect(Object.keys(e).sort()).toEqual(['codexRoute', 'env', 'form', 'harness', 'home', 'note', 'pinnedId', 'provenOn', 'resumeCommand', 'shell', 'targetId']);
      // The versions the real-client suite last proved (src/harness/proven-clients.ts).
      expect(e.provenOn).toEqual(PROVEN_CLIENTS.filter((c) => c.agent === 'claude').map(({ version, node, channels }) => ({ version, node, channels })));
      expect(e.provenOn.length).toBeGreaterThanOrEqual(2);
      expect(e.provenOn[0].channels['exit hint']).toContain('--resume <id>');
      expect(e.home).toEqual({ variable: 'CLAUDE_CONFIG_DIR', path: sb.env.CLAUDE_CONFIG_DIR, savedInRecipe: false });
      expect(e).toMatchObject({ harness: 'claude', form: 'bare', targetId: null, codexRoute: null, resumeCommand: null, note: null });
      expect(e.shell).toBe(`claude --session-id '${e.pinnedId}' --settings '<namespace>/claude-settings.json'`);
      expect(e.env).toEqual({ FLEETCOM_CAPTURE_FILE: '<namespace>/task-<id>-<run>.json' });
    });

    it('reads the codex route from the caller\'s codex home and chains to a user notifier', async () => {
      const sb = await useSandbox();
      await sb.mkdir('home', '.codex');
      const { writeFile } = await import('node:fs/promises');
      await writeFile(`${sb.env.CODEX_HOME}/config.toml`, 'notify = ["/my/notifier", "--flag"]\n');
      const r = await runCli(['explain', '--json', '--id', CID, '--', 'codex'], { env: sb.env, cwd: sb.dir });
      const e = JSON.parse(r.stdout);
      expect(e).toMatchObject({
        harness: 'codex', form: 'bare', pinnedId: null, codexRoute: 'chain', resumeCommand: `codex resume '${CID}'`,
        shell: `codex -c 'notify=["<namespace>/codex-notify.sh"]'`,
        env: { FLEETCOM_CAPTURE_FILE: '<namespace>/task-<id>-<run>.json', FLEETCOM_NOTIFY_CHAIN: '/my/notifier\n--flag' },
      });
    });

    it('keeps an opaque command verbatim and says why', async () => {
      const sb = await useSandbox();
      const r = await runCli(['explain', '--json', '--id', ID, '--', 'claude; ls'], { env: sb.env, cwd: sb.dir });
      const e = JSON.parse(r.stdout);
      expect(e).toMatchObject({ harness: null, form: 'opaque', shell: 'claude; ls', env: {}, resumeCommand: 'claude; ls' });
      expect(e.note).toContain('shell syntax');
    });

    it('leaves the command unchanged for an invalid --id, with a note', async () => {
      const sb = await useSandbox();
      const r = await runCli(['explain', '--json', '--id', ID.toUpperCase(), '--', 'grok', '--resume', ID], { env: sb.env, cwd: sb.dir });
      const e = JSON.parse(r.stdout);
      expect(e).toMatchObject({ harness: 'grok', form: 'resume', targetId: ID, pinnedId: null, shell: `grok --resume ${ID}` });
      expect(e.resumeCommand).toBe(`grok --resume ${ID}`);
      expect(e.note).toContain('not a valid id');
    });

    it('shows an agent home other than HOME\'s default, which a save keeps in the recipe', async () => {
      const sb = await useSandbox();
      const work = `${sb.env.HOME}/.claude-work`;
      const r = await runCli(['explain', '--json', '--', 'claude'], { env: { ...sb.env, CLAUDE_CONFIG_DIR: work }, cwd: sb.dir });
      expect(JSON.parse(r.stdout).home).toEqual({ variable: 'CLAUDE_CONFIG_DIR', path: work, savedInRecipe: true });
      const text = await runCli(['explain', '--', 'claude'], { env: { ...sb.env, CLAUDE_CONFIG_DIR: work }, cwd: sb.dir });
      expect(text.stdout).toContain(`home        CLAUDE_CONFIG_DIR=${work} (a save keeps it in the recipe)`);
      const opaque = await runCli(['explain', '--json', '--', 'claude; ls'], { env: sb.env, cwd: sb.dir });
      expect(JSON.parse(opaque.stdout).home).toBeNull();
    });

    it('prints a readable block without --json', async () => {
      const sb = await useSandbox();
      const r = await runCli(['explain', '--id', ID, '--', '/usr/local/bin/claude', '--resume', ID], { env: sb.env, cwd: sb.dir });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain('harness     claude (resume)');
      expect(r.stdout).toContain(`resume      /usr/local/bin/claude --resume '${ID}'`);
    });

    it('rejects a --cwd that does not exist', async () => {
      const sb = await useSandbox();
      const r = await runCli(['explain', '--cwd', 'missing', '--', 'claude'], { env: sb.env, cwd: sb.dir });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`--cwd ${sb.dir}/missing is not an existing directory`);
    });
  });
});
