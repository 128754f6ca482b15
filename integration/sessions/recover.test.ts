// Recovery after the whole tmux server died: the snapshot the dead supervisor kept brings
// every agent back into its own conversation, in a new server and a new fleet.
import { mkdir, readFile, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { recoveryFileName } from '../../src/sessions/names.js';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { waitForText } from '../helpers/pane.js';
import { processAlive, useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { exitAgent, readDoc, recoveryDir, snapshots, spawnIn, startsAfter, talk, tilde } from './kit.js';

describe('fleetcom recover', () => {
  it('brings every agent back into its own conversation after the tmux server was killed', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const [a, b, c, d] = await Promise.all(['a', 'b', 'c', 'd'].map((n) => sb.mkdir('home', 'w', n)));
    const gone = await spawnIn(fleet, a!, 'claude');
    const claude = await spawnIn(fleet, b!, 'claude', '--name', 'reviewer');
    const grok = await spawnIn(fleet, c!, 'grok');
    const codex = await spawnIn(fleet, d!, 'codex', '--group', 'backend');
    await talk(sb, gone, 'claude', 'a finished conversation');
    await talk(sb, claude, 'claude', 'a running conversation');
    await talk(sb, grok, 'grok', 'grok is busy');
    await talk(sb, codex, 'codex', 'codex is busy');
    const ids = {
      gone: (await exitAgent(sb, fleet, gone)).conversationId,
      claude: (await fleet.waitTask(claude.id, (t) => t.idSource === 'capture', 'captured')).conversationId,
      grok: (await fleet.task(grok.id)).conversationId,
      codex: (await fleet.waitTask(codex.id, (t) => t.idSource === 'capture', 'captured')).conversationId,
    };
    const expected = {
      [tilde(sb, a!)]: [`claude --resume '${ids.gone}'`],
      [tilde(sb, b!)]: [{ cmd: `claude --resume '${ids.claude}'`, group: null, name: 'reviewer' }],
      [tilde(sb, c!)]: [`grok --resume '${ids.grok}'`],
      [tilde(sb, d!)]: [{ cmd: `codex resume '${ids.codex}'`, group: 'backend', name: null }],
    };
    // The last fleet changes (an exit, a capture) are followed by a snapshot ~2 s later.
    const [snapshot] = await waitFor(async () => {
      const names = await snapshots(sb);
      if (names.length !== 1) return false;
      const doc = await readDoc(join(recoveryDir(sb), names[0]!));
      return JSON.stringify(doc.dirs) === JSON.stringify(expected) && names;
    }, { what: 'a recovery snapshot holding every conversation' });
    expect(snapshot).toMatch(/^\d{8}-\d{6}-\d+\.json$/);

    const supervisor = Number.parseInt(await readFile(join(sb.env.FLEETCOM_RUNTIME_DIR!, 'lock'), 'utf8'), 10);
    await sb.killServer();
    await waitFor(() => !processAlive(supervisor), { what: `the supervisor (pid ${supervisor}) to exit` });
    const crashed = await readDoc(join(recoveryDir(sb), snapshot!));
    expect(crashed.closed).toBeUndefined();
    expect(crashed.dirs).toEqual(expected);

    // A new server and an empty fleet: it points at the snapshot, and recover loads it.
    const before = (await sb.agentStarts()).length;
    const fresh = await startFleet(sb);
    await waitForText(sb, fresh.supervisorPane, 'bring the newest back with: fleetcom recover');
    const recovered = await fresh.cli('recover');
    expect(recovered.exitCode).toBe(0);
    expect(recovered.stderr).toMatch(/loaded 'autosaved \d{4}-\d\d-\d\d \d\d:\d\d': 4 task\(s\)/);

    const starts = await startsAfter(sb, before, 4);
    const resumed = starts.map((s) => [s.cwd, s.agent, s.argv.slice(0, 2)]);
    expect(resumed).toEqual(expect.arrayContaining([
      [a, 'claude', ['--resume', ids.gone]],
      [b, 'claude', ['--resume', ids.claude]],
      [c, 'grok', ['--resume', ids.grok]],
      [d, 'codex', ['resume', ids.codex]],
    ]));
    expect(resumed).toHaveLength(4);
    // Each agent is inside its conversation: claude's capture and codex's pin name the old ids.
    const tasks = await fresh.ls();
    const byDir = new Map(tasks.map((t) => [t.cwd, t]));
    expect(byDir.get(b!)).toMatchObject({ name: 'reviewer' });
    expect(byDir.get(d!)).toMatchObject({ group: 'backend', conversationId: ids.codex });
    await fresh.waitTask(byDir.get(b!)!.id, (t) => t.conversationId === ids.claude, 'the resumed claude conversation');
    await fresh.waitTask(byDir.get(a!)!.id, (t) => t.conversationId === ids.gone, 'the resumed finished conversation');
    expect((await fresh.task(byDir.get(c!)!.id)).conversationId).toBe(ids.grok);

    // The running fleet's own snapshot is never the one recover picks.
    await waitFor(async () => (await snapshots(sb)).length === 2, { what: 'the new fleet to write its snapshot' });
    const again = await fresh.cli('recover');
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain(`recovering ${join(recoveryDir(sb), snapshot!)}`);
    // A snapshot by the name `sessions` shows. Its conversations are all open in this fleet
    // now: a second recover starts none of them again, and says so in one line.
    const named = await fresh.cli('recover', snapshot!.replace(/\.json$/, ''));
    expect(named.exitCode).toBe(0);
    expect(named.stderr).toMatch(/skipped: 4 task\(s\): its conversation is already open in this fleet; not started again/);
    expect(named.stderr).toContain(': 0 task(s)');
    expect(await fresh.ls()).toHaveLength(4);
  });
});

describe('unclosed recovery snapshots', () => {
  it('are named by up newest first, picked by recover, and never pruned behind ten newer closed ones', async () => {
    const sb = await useSandbox();
    const dir = recoveryDir(sb);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const now = Date.now();
    // Pids above any pid_max: no process can own them, so these supervisors are surely gone.
    const write = async (minutesAgo: number, pid: number, body: object): Promise<string> => {
      const at = new Date(now - minutesAgo * 60_000);
      const name = recoveryFileName(at, pid);
      await writeFile(join(dir, name), JSON.stringify({ version: 1, name: `snapshot ${pid}`, ...body }), { mode: 0o600 });
      await utimes(join(dir, name), at, at);
      return name;
    };
    const older = await write(600, 4999901, { dirs: { [sb.dir]: ['echo older', 'echo older too'] } });
    const newer = await write(500, 4999902, { dirs: { [sb.dir]: ['echo newer'] } });
    for (let k = 0; k < 10; k++) await write(100 - k, 4999910 + k, { closed: true, dirs: { [sb.dir]: [`echo clean ${k}`] } });

    const fleet = await startFleet(sb);
    const log = await waitForText(sb, fleet.supervisorPane, 'bring the newest back with: fleetcom recover');
    const named = log.split('\n').filter((l) => /snapshot 49999\d\d/.test(l));
    expect(named.map((l) => /snapshot (\d+)/.exec(l)?.[1])).toEqual(['4999902', '4999901']);

    const recovered = await fleet.cli('recover');
    expect(recovered.exitCode).toBe(0);
    expect(recovered.stderr).toContain(`recovering ${join(dir, newer)}`);
    expect((await fleet.ls()).map((t) => t.command)).toEqual(['echo newer']);

    // Its first snapshot makes this fleet prune: the oldest clean one goes, both crashed ones stay.
    const oldestClean = recoveryFileName(new Date(now - 100 * 60_000), 4999910);
    const files = await waitFor(async () => {
      const names = await readdir(dir);
      return !names.includes(oldestClean) && names;
    }, { what: 'the new fleet to write its snapshot and prune' });
    expect(files).toContain(older);
    expect(files).toContain(newer);
    expect(files.filter((n) => n.endsWith('.json'))).toHaveLength(12);
  });
});
