// `fleetcom load` and `fleetcom sessions`: a saved fleet comes back into a new fleet with each
// agent started on its resume arguments; a malformed file spawns nothing.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { runCli } from '../helpers/cli.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { exitAgent, readDoc, recoveryDir, snapshots, spawnIn, startsAfter, talk } from './kit.js';

describe('fleetcom load', () => {
  it('starts every agent of a saved session with its resume arguments, in its directory', async () => {
    const sb = await useSandbox();
    const first = await startFleet(sb);
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((n) => sb.mkdir('home', 'w', n)));
    const claude = await spawnIn(first, a!, 'claude', '--name', 'reviewer');
    const codex = await spawnIn(first, b!, 'codex', '--group', 'backend');
    const grok = await spawnIn(first, c!, 'grok');
    await talk(sb, claude, 'claude', 'remember the plan');
    await talk(sb, codex, 'codex', 'write the tests');
    await talk(sb, grok, 'grok', 'look around');
    const claudeId = (await exitAgent(sb, first, claude)).conversationId;
    const codexId = (await exitAgent(sb, first, codex)).conversationId;
    const grokId = (await first.task(grok.id)).conversationId;
    expect((await first.cli('save', 'work')).exitCode).toBe(0);

    // down: the fleet's last recovery snapshot is marked closed.
    expect((await first.cli('down')).exitCode).toBe(0);
    const [closed] = await snapshots(sb);
    expect(await readDoc(join(recoveryDir(sb), closed!))).toMatchObject({ closed: true });

    const second = await startFleet(sb, { name: 'second' });
    const before = (await sb.agentStarts()).length;
    const loaded = await second.cli('load', 'work');
    expect(loaded).toMatchObject({ exitCode: 0, stdout: '' });
    expect(loaded.stderr).toContain("loaded 'work': 3 task(s)");
    const starts = await startsAfter(sb, before, 3);
    const byAgent = Object.fromEntries(starts.map((s) => [s.agent, s]));
    expect(byAgent.claude).toMatchObject({ cwd: a, argv: ['--resume', claudeId, '--settings', expect.stringMatching(/claude-settings\.json$/)] });
    expect(byAgent.codex).toMatchObject({ cwd: b, argv: ['resume', codexId, '-c', expect.stringMatching(/^notify=/)] });
    expect(byAgent.grok).toMatchObject({ cwd: c, argv: ['--resume', grokId] });
    const tasks = await second.ls();
    expect(tasks.map((t) => [t.cwd, t.name, t.group, t.command])).toEqual([
      [a, 'reviewer', null, `claude --resume '${claudeId}'`],
      [b, null, 'backend', `codex resume '${codexId}'`],
      [c, null, null, `grok --resume '${grokId}'`],
    ]);

    const listed = await second.cli('sessions', '--json');
    expect(listed.exitCode).toBe(0);
    const doc = JSON.parse(listed.stdout) as { saved: Array<{ name: string; tasks: number }>; recovery: Array<{ closed: boolean }> };
    expect(doc.saved).toEqual([expect.objectContaining({ name: 'work', tasks: 3 })]);
    expect(doc.recovery.some((r) => r.closed)).toBe(true);
  });

  it('refuses a malformed file as a whole, naming the file and where, and skips missing directories', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const here = await sb.mkdir('w');
    await writeFile(join(sb.dir, 'bad.json'), JSON.stringify({ version: 1, name: 'bad', dirs: { [here]: ['sleep 600', 3] } }));
    const bad = await fleet.cli('load', './bad.json');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain(join(sb.dir, 'bad.json'));
    expect(bad.stderr).toContain(`dirs[${JSON.stringify(here)}][1]`);
    await writeFile(join(sb.dir, 'broken.json'), '{"version": 1,\n "dirs": {');
    const broken = await fleet.cli('load', './broken.json');
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toMatch(/broken\.json: line 2, column \d+: invalid JSON/);
    expect(await fleet.ls()).toEqual([]);

    await writeFile(join(sb.dir, 'ok.json'), JSON.stringify({ './w': ['sleep 600'], './gone': ['sleep 601'] }));
    const ok = await fleet.cli('load', 'ok.json');
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr).toContain('skipping 1 task(s) in ./gone: the directory does not exist');
    expect(ok.stderr).toContain("loaded 'ok': 1 task(s)");
    expect((await fleet.ls()).map((t) => [t.cwd, t.command])).toEqual([[here, 'sleep 600']]);
  });

  it('up SESSION loads the session at start; a malformed one stops up before tmux', async () => {
    const sb = await useSandbox();
    const w = await sb.mkdir('home', 'w');
    const id = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
    const project = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', w.replace(/[^A-Za-z0-9]/g, '-'));
    await mkdir(project, { recursive: true });
    await writeFile(join(project, `${id}.jsonl`), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`);
    await writeFile(join(sb.dir, 'start.json'), JSON.stringify({ version: 1, name: 'start', dirs: { '~/w': [`claude --resume '${id}'`, 'sleep 600'] } }));
    await writeFile(join(sb.dir, 'bad.json'), '{"version": 3, "dirs": {}}');

    const refused = await runCliOutside(sb, ['up', '--detach', '--tmux-socket', sb.socket, './bad.json']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('bad.json');
    expect(refused.stderr).toContain('version 3');

    const fleet = await startFleet(sb, { args: ['./start.json'] });
    const tasks = await waitFor(async () => {
      const all = await fleet.ls();
      return all.length === 2 && all;
    }, { what: 'the two tasks of start.json' });
    expect(tasks.map((t) => [t.cwd, t.command])).toEqual([[w, `claude --resume '${id}'`], [w, 'sleep 600']]);
    const [start] = await startsAfter(sb, 0, 1);
    expect(start).toMatchObject({ agent: 'claude', cwd: w, argv: ['--resume', id, '--settings', expect.any(String)] });
  });
});

function runCliOutside(sb: Sandbox, args: string[]) {
  return runCli(args, { env: sb.env, cwd: sb.dir });
}
