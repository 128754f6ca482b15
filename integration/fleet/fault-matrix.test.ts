// Crashes and failures at the wrong moment, each on its own private tmux server, and after each
// the same question: was anything lost? Every task window is still a task (none unknown, none
// forgotten), every conversation id is still there, no agent runs twice, and no session file is
// half-written. Kill moments come from a seeded schedule, so a failure can be replayed.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { seededRandom } from '../helpers/hostile-text.js';
import { mountNamespace } from '../helpers/mount-ns.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { processAlive, useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { killSupervisor, supervisorPid, upAgain } from '../helpers/supervisor.js';
import { waitFor } from '../helpers/wait-for.js';
import { recoveryDir, sessionsDir } from '../sessions/kit.js';

const LONG = 300_000;

/** The task ids the fleet's windows carry (any session of the server), by window. */
async function taskWindows(sb: Sandbox): Promise<number[]> {
  const out = await sb.tmux('list-windows', '-a', '-F', '#{@fleetcom-task}');
  return out.split('\n').filter((l) => /^\d+$/.test(l)).map(Number).sort((a, b) => a - b);
}

/** The pinned id of each grok start (fleetcom pins every new grok with --session-id). */
async function grokIds(sb: Sandbox): Promise<string[]> {
  return (await sb.agentStarts()).filter((s) => s.agent === 'grok').map((s) => s.argv[s.argv.indexOf('--session-id') + 1] ?? s.argv[1] ?? '');
}

/**
 * Nothing lost: every task window is a known task, no grok start made two tasks, none ran
 * twice, and no grok conversation is listed twice (a grok that never talked has none yet).
 */
async function expectNothingLost(sb: Sandbox, fleet: Fleet): Promise<void> {
  const tasks = await fleet.ls();
  const windows = await taskWindows(sb);
  expect(tasks.filter((t) => t.paneId !== '').map((t) => t.id).sort((a, b) => a - b)).toEqual(windows);
  expect(tasks.filter((t) => t.command === null)).toEqual([]);
  const ids = await grokIds(sb);
  expect(new Set(ids).size).toBe(ids.length);
  expect(tasks.filter((t) => t.command === 'grok').length).toBeLessThanOrEqual(ids.length);
  for (const id of ids) expect(tasks.filter((t) => t.conversationId === id).length, `grok conversation ${id}`).toBeLessThanOrEqual(1);
}

async function recipeFile(sb: Sandbox, name: string, tasks: string[]): Promise<string> {
  const file = join(sb.dir, `${name}.json`);
  await writeFile(file, JSON.stringify({ version: 1, name, dirs: { [sb.dir]: tasks } }));
  return file;
}

describe('fault matrix', () => {
  it('SIGKILL of the supervisor while it loads 30 tasks: the next up adopts every window made, none twice', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const commands = Array.from({ length: 30 }, (_, i) => (i % 10 === 0 ? 'grok' : `sleep ${600 + i}`));
    const file = await recipeFile(sb, 'thirty', commands);
    const load = fleet.cli('load', file);
    // Killed once tmux holds some of the windows (before state.json may say so).
    await waitFor(async () => (await taskWindows(sb)).length >= 1, { what: 'the first windows of the load' });
    await killSupervisor(sb, fleet);
    await load;
    await upAgain(sb, fleet);
    await expectNothingLost(sb, fleet);
    const tasks = await fleet.ls();
    expect(tasks.map((t) => t.command)).toEqual(commands.slice(0, tasks.length));
    expect(tasks.map((t) => t.id)).toEqual(tasks.map((_, i) => i + 1));
  }, LONG);

  it('SIGKILL of the supervisor during a rerun: the task is there once, in its conversation, its agent running at most once', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const task = await fleet.task(await fleet.run('grok'));
    await waitForText(sb, task.paneId, 'grok>');
    await typeLine(sb, task.paneId, 'hello');
    await waitForText(sb, task.paneId, 'fake reply to: hello');
    await typeLine(sb, task.paneId, '/exit');
    const exited = await fleet.waitTask(task.id, (t) => t.state === 'exited', 'grok exited');
    const pid = await supervisorPid(sb, fleet.supervisorPane);
    const rerun = fleet.cli('rerun', String(task.id));
    await new Promise((resolve) => setTimeout(resolve, Math.floor(seededRandom(7)() * 400)));
    process.kill(pid, 'SIGKILL');
    await rerun;
    await upAgain(sb, fleet);
    const [back] = await fleet.ls();
    expect(back).toMatchObject({ id: task.id, conversationId: exited.conversationId });
    const resumed = (await sb.agentStarts()).filter((s) => s.argv.includes('--resume') && s.argv.includes(exited.conversationId!));
    expect(resumed.length).toBeLessThanOrEqual(1);
    expect(await taskWindows(sb)).toEqual([task.id]);
  }, LONG);

  it.each([0, 1, 2])('SIGKILL of the supervisor during down (seeded moment %i): what is left is adopted or in an unclosed snapshot', async (seed) => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const ids = [await fleet.run('grok'), await fleet.run('sleep', '600'), await fleet.run('sleep', '601')];
    await waitFor(async () => (await readdir(recoveryDir(sb)).catch(() => [])).length > 0, { what: 'a recovery snapshot' });
    const pid = await supervisorPid(sb, fleet.supervisorPane);
    const down = fleet.cli('down');
    await new Promise((resolve) => setTimeout(resolve, Math.floor(seededRandom(seed)() * 3000)));
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // down finished first: nothing to kill
    }
    await down;
    const left = await taskWindows(sb);
    const [snapshot] = await readdir(recoveryDir(sb));
    const doc = JSON.parse(await readFile(join(recoveryDir(sb), snapshot!), 'utf8')) as { closed?: boolean };
    if (left.length > 0) {
      expect(doc.closed).toBeUndefined();
      await upAgain(sb, fleet);
      await expectNothingLost(sb, fleet);
      expect((await fleet.ls()).map((t) => t.id)).toEqual(left);
    } else if (doc.closed !== true) {
      // Every task stopped, the supervisor died before closing: the snapshot still offers them.
      expect(Object.values((JSON.parse(await readFile(join(recoveryDir(sb), snapshot!), 'utf8')) as { dirs: Record<string, unknown[]> }).dirs).flat()).toHaveLength(ids.length);
    }
  }, LONG);

  it('SIGKILL of save at seeded moments never leaves a half-written session file', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    for (let i = 0; i < 5; i++) await fleet.run('sleep', String(600 + i));
    const good = await fleet.cli('save', 'work');
    expect(good.exitCode).toBe(0);
    const file = join(sessionsDir(sb), 'work.json');
    const saved = await readFile(file, 'utf8');
    await fleet.run('grok');
    const random = seededRandom(42);
    for (let round = 0; round < 6; round++) {
      const save = execa(process.execPath, [cliPath, 'save', 'work'], { env: sb.env, extendEnv: false, cwd: sb.dir, reject: false });
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 1500)));
      save.kill('SIGKILL');
      await save;
      const text = await readFile(file, 'utf8');
      // The old file whole, or a whole new one: never a part.
      if (text !== saved) expect((JSON.parse(text) as { dirs: Record<string, string[]> }).dirs[sb.dir]).toHaveLength(6);
    }
    const names = (await readdir(sessionsDir(sb))).filter((n) => !n.startsWith('.'));
    expect(names).toEqual(['recovery', 'work.json']);
  }, LONG);

  it('a full runtime dir and a read-only sessions dir: tasks run on, save fails cleanly, and a crash loses nothing', async (ctx) => {
    const sb = await useSandbox();
    const runtime = sb.env.FLEETCOM_RUNTIME_DIR!;
    const sessions = sessionsDir(sb);
    const ns = await mountNamespace([{ dir: runtime, kib: 64 }, { dir: sessions, kib: 256 }]);
    if (ns === null) return ctx.skip('unshare -m is not permitted here');
    onTestFinished(() => ns.close());
    await ns.startTmux(sb);
    const fleet = await startFleet(sb, { wrap: ns.wrap });
    const first = await fleet.run('grok');
    const saved = await fleet.cli('save', 'work');
    expect(saved.exitCode).toBe(0);
    const before = await readFile(ns.inside(join(sessions, 'work.json')), 'utf8');

    // Fill the runtime dir: state.json can no longer be written. The sessions dir turns read-only.
    await execa(ns.wrap[0]!, [...ns.wrap.slice(1), 'sh', '-c', `cat /dev/zero > '${runtime}/filler' 2>/dev/null; true`]);
    await ns.remount(sessions, 'ro');
    const more = [await fleet.run('grok'), await fleet.run('sleep', '600')];
    await waitForText(sb, fleet.supervisorPane, /could not write .*state\.json/);
    const refused = await fleet.cli('save', 'work');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('read-only file system');
    expect(await readFile(ns.inside(join(sessions, 'work.json')), 'utf8')).toBe(before);

    // state.json holds only the first task now; the windows hold all three.
    await killSupervisor(sb, fleet);
    await execa(ns.wrap[0]!, [...ns.wrap.slice(1), 'rm', '-f', `${runtime}/filler`]);
    await upAgain(sb, fleet); // its window runs on the server, inside the namespace
    await expectNothingLost(sb, fleet);
    expect((await fleet.ls()).map((t) => t.id)).toEqual([Number(first), ...more.map(Number)]);
  }, LONG);

  it('the tmux server killed with tasks running: up and recover bring every conversation back, each once', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    for (let i = 0; i < 3; i++) {
      const grok = await fleet.task(await fleet.run('grok'));
      await waitForText(sb, grok.paneId, 'grok>');
      await typeLine(sb, grok.paneId, `hello ${i}`);
      await waitForText(sb, grok.paneId, `fake reply to: hello ${i}`);
    }
    await fleet.run('sleep', '600');
    const listed = await fleet.ls();
    const ids = listed.map((t) => t.conversationId).filter((id): id is string => id !== null);
    expect(ids, JSON.stringify(listed)).toHaveLength(3);
    await waitFor(async () => {
      const [name] = await readdir(recoveryDir(sb)).catch(() => [] as string[]);
      if (name === undefined) return false;
      const doc = await readFile(join(recoveryDir(sb), name), 'utf8');
      return doc.includes('sleep 600') && ids.every((id) => doc.includes(id));
    }, { what: 'a snapshot naming every task and conversation' });
    const pid = await supervisorPid(sb, fleet.supervisorPane);
    await sb.killServer();
    await waitFor(() => !processAlive(pid), { what: 'the supervisor to end with its server' });
    const fresh = await startFleet(sb);
    const recovered = await fresh.cli('recover');
    // What recover said, in every message below: it names the snapshot and what it skipped.
    const said = `recover: ${recovered.stdout}${recovered.stderr}`;
    expect(recovered.exitCode, said).toBe(0);
    const tasks = await fresh.ls();
    expect(tasks.map((t) => `${t.command} ${t.conversationId}`), said).toHaveLength(4);
    for (const id of ids) expect(tasks.filter((t) => t.conversationId === id), `${id}; ${said}`).toHaveLength(1);
    // A second recover starts no conversation that is open in this fleet again.
    const again = await fresh.cli('recover');
    for (const id of ids) expect((await fresh.ls()).filter((t) => t.conversationId === id), `${id}; recover: ${again.stdout}${again.stderr}`).toHaveLength(1);
  }, LONG);

  it('50 CLI clients at once (run, ls, tag) against one supervisor: every request answered', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const base = Number(await fleet.run('sleep', '600'));
    const requests = Array.from({ length: 50 }, (_, i) =>
      i % 3 === 0 ? ['run', '--', 'sleep', String(700 + i)] : i % 3 === 1 ? ['ls', '--json'] : ['tag', String(base)]);
    // Generous: fifty node processes start at once on a loaded 2-core machine.
    const results = await Promise.all(requests.map((args) => runCli(args, { env: sb.env, cwd: sb.dir, timeout: 240_000 })));
    for (const [i, r] of results.entries()) expect(r.exitCode, `${requests[i]!.join(' ')}: ${r.stderr}`).toBe(0);
    const runIds = results.filter((_, i) => i % 3 === 0).map((r) => Number(r.stdout.trim()));
    expect(new Set(runIds).size).toBe(runIds.length);
    const tags = requests.filter((r) => r[0] === 'tag').length;
    const tasks = await fleet.ls();
    expect(tasks).toHaveLength(1 + runIds.length);
    expect(tasks.find((t) => t.id === base)?.tagged).toBe(tags % 2 === 1);
    await expectNothingLost(sb, fleet);
  }, LONG);
});
