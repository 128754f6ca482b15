// config.json as `up`, `keys` and `config` read it: defaults, the file's values, flags over
// the file, and a bad file refused whole before anything starts.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../src/config/keys.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { paneText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

async function writeConfig(sb: Sandbox, settings: unknown): Promise<string> {
  const dir = sb.env.FLEETCOM_CONFIG_DIR!;
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'config.json');
  await writeFile(file, typeof settings === 'string' ? settings : JSON.stringify(settings));
  return file;
}

const cli = (sb: Sandbox, ...args: string[]): Promise<CliResult> => runCli(args, { env: sb.env, cwd: sb.dir });

async function upDetached(sb: Sandbox, ...flags: string[]): Promise<void> {
  const r = await cli(sb, 'up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'cfg', ...flags);
  expect({ code: r.exitCode, out: r.stdout, err: r.stderr }).toEqual({ code: 0, out: 'cfg\n', err: '' });
}

/** The prefix-table binding of `key`, or '' when there is none. */
async function binding(sb: Sandbox, key: string): Promise<string> {
  return sb.tmux('list-keys', '-T', 'prefix', key).catch(() => '');
}

/** A task that prints nothing; resolves when ls --json says it is idle. */
async function goesIdle(sb: Sandbox, timeout: number): Promise<void> {
  const id = (await cli(sb, 'run', '--', 'sleep 600')).stdout.trim();
  await waitFor(async () => {
    const tasks = JSON.parse((await cli(sb, 'ls', '--json')).stdout) as { id: number; state: string }[];
    return tasks.find((t) => String(t.id) === id)?.state === 'idle';
  }, { what: `task ${id} idle`, timeout });
}

describe('config.json', () => {
  it('config prints the defaults and the file it looked for when there is none', async () => {
    const sb = await useSandbox();
    const file = join(sb.env.FLEETCOM_CONFIG_DIR!, 'config.json');
    const r = await cli(sb, 'config', '--json');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      file,
      settings: {
        rerunKey: { value: 'r', source: 'default' },
        idleSeconds: { value: 10, source: 'default' },
        groupBy: { value: 'state', source: 'default' },
        nextKey: { value: 'N', source: 'default' },
        notifyCommand: { value: null, source: 'default' },
        notify: { value: { delaySeconds: 5, cooldownSeconds: 60, whenWatching: false, targets: [] }, source: 'default' },
        hosts: { value: [], source: 'default' },
        sshCommand: { value: ['ssh'], source: 'default' },
        remoteCommand: { value: ['fleetcom'], source: 'default' },
        hostTimeoutSeconds: { value: 5, source: 'default' },
        homes: { value: {}, source: 'default' },
        sendMaxBytes: { value: 262144, source: 'default' },
        worktreeDir: { value: '{repo-root}/../{repo}.worktrees/{branch}', source: 'default' },
        worktreeSetup: { value: null, source: 'default' },
        worktreeSetupSeconds: { value: 600, source: 'default' },
      },
    });
    const text = await cli(sb, 'config');
    expect(text.stdout.split('\n')[0]).toBe(`# ${file}`);
    expect(text.stdout).toMatch(/^idleSeconds +10 +default +seconds without output/m);
  });

  it('is found under XDG_CONFIG_HOME without FLEETCOM_CONFIG_DIR, and config says which value came from it', async () => {
    const sb = await useSandbox();
    const env = { ...sb.env, FLEETCOM_CONFIG_DIR: undefined };
    const file = join(sb.env.XDG_CONFIG_HOME!, 'fleetcom', 'config.json');
    await mkdir(join(sb.env.XDG_CONFIG_HOME!, 'fleetcom'), { recursive: true });
    await writeFile(file, '{"groupBy": "group"}');
    const r = await runCli(['config'], { env, cwd: sb.dir });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`# ${file}\n`);
    expect(r.stdout).toMatch(/^groupBy +"group" +config file /m);
    expect(r.stdout).toMatch(/^rerunKey +"r" +default /m);
  });

  it("up binds the file's rerun key, marks tasks idle after its idleSeconds and opens the dashboard in its grouping", async () => {
    const sb = await useSandbox();
    await writeConfig(sb, { rerunKey: 'F5', idleSeconds: 1, groupBy: 'dir' });
    expect(await cli(sb, 'keys')).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('bind-key -T prefix F5 ') });
    await upDetached(sb);
    expect(await binding(sb, 'F5')).toContain('rerun');
    expect(await binding(sb, 'r')).not.toContain('rerun');
    // The default (10 s) would not make it idle before this deadline.
    await goesIdle(sb, 8_000);
    const supervisor = (await sb.tmux('list-panes', '-t', 'cfg:0', '-F', '#{pane_id}')).trim();
    await waitFor(async () => (await paneText(sb, supervisor)).includes('by directory'), { what: 'the dashboard grouped by directory' });
    expect((await cli(sb, 'down')).exitCode).toBe(0);
    expect(await binding(sb, 'F5')).not.toContain('rerun');
  });

  it("up binds the file's next-task key and runs its notify command (the attention keys)", async () => {
    const sb = await useSandbox();
    await writeConfig(sb, { nextKey: 'F7', notifyCommand: 'true' });
    expect(await cli(sb, 'keys')).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('bind-key -T prefix F7 ') });
    await upDetached(sb);
    expect(await binding(sb, 'F7')).toContain("'next'");
    expect(await binding(sb, 'N')).not.toContain("'next'");
    const up = (await sb.tmux('list-panes', '-t', 'cfg:0', '-F', '#{pane_start_command}')).trim();
    expect(up).toContain('--notify-command true');
    expect((await cli(sb, 'down')).exitCode).toBe(0);
    expect(await binding(sb, 'F7')).not.toContain("'next'");
  });

  it('gives way to the flags of up', async () => {
    const sb = await useSandbox();
    await writeConfig(sb, { rerunKey: 'F5', idleSeconds: 3600 });
    await upDetached(sb, '--rerun-key', 'F6', '--idle-seconds', '1');
    expect(await binding(sb, 'F6')).toContain('rerun');
    expect(await binding(sb, 'F5')).not.toContain('rerun');
    await goesIdle(sb, 8_000);
    expect((await cli(sb, 'down')).exitCode).toBe(0);
  });

  it.each([
    ['a wrong type', { idleSeconds: '30' }, 'idleSeconds: expected a number'],
    ['an unknown key', { rerunKey: 'F5', notfy: true }, `notfy: unknown key (known: ${CONFIG_KEYS.join(', ')})`],
    ['an unknown alert target', { notify: { targets: [{ type: 'pager' }] } }, 'notify.targets.0.type: '],
    ['a webhook that is not http(s)', { notify: { targets: [{ type: 'webhook', url: 'file:///etc/passwd' }] } }, 'notify.targets.0.url: "file:///etc/passwd" is not an http(s) URL'],
    ['a command argv as a string', { notify: { targets: [{ type: 'command', argv: 'notify-send hi' }] } }, 'notify.targets.0.argv: '],
    ['a negative delay', { notify: { delaySeconds: -1 } }, 'notify.delaySeconds: expected 0 or more'],
    ['bad JSON', '{"rerunKey": "F5",}', 'line 1, column 19: invalid JSON: '],
  ])('with %s is refused whole, naming the file, the key and the reason: nothing starts', async (_title, settings, reason) => {
    const sb = await useSandbox();
    const file = await writeConfig(sb, settings);
    const up = await cli(sb, 'up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'cfg');
    expect(up.exitCode).toBe(2);
    expect(up.stdout).toBe('');
    expect(up.stderr).toContain(`fleetcom: ${file}: ${reason}`);
    expect(await sb.tmux('list-sessions').catch(() => 'no server')).toBe('no server');
    expect((await cli(sb, 'config')).exitCode).toBe(2);
    expect((await cli(sb, 'keys')).exitCode).toBe(2);
  });

  it('refuses bad flag values as usage errors', async () => {
    const sb = await useSandbox();
    const idle = await cli(sb, 'up', '--idle-seconds', '0', '--detach', '--tmux-socket', sb.socket);
    expect({ code: idle.exitCode, err: idle.stderr.split('\n')[0] }).toEqual({ code: 2, err: 'fleetcom: --idle-seconds 0: expected a whole number of seconds from 1 to 86400' });
    const group = await cli(sb, 'up', '--group-by', 'name', '--detach', '--tmux-socket', sb.socket);
    expect(group.exitCode).toBe(2);
    expect(group.stderr).toContain("'name' is invalid");
  });
});
