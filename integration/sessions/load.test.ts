// `fleetcom load` and `fleetcom sessions`: a saved fleet comes back into a new fleet with each
// agent started on its resume arguments; a malformed file spawns nothing.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
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
});

