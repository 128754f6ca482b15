// The supervisor's one control connection to tmux: reads answered without a tmux process,
// changes seen as tmux's events instead of at the next reconciliation, and the same outcomes
// as before when the connection, or the server, fails.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { callSupervisor } from '../../src/control/client.js';
import { fleetRuntime } from '../../src/paths.js';
import { CONTROL_TERM } from '../../src/tmux/control/connection.js';
import { startFleet, type Fleet, type StartFleetOptions } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { processAlive, useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { killSupervisor, supervisorPid, upAgain } from '../helpers/supervisor.js';
import { waitFor } from '../helpers/wait-for.js';

/** A `tmux` first on PATH that logs each start (its argv) and runs the real one. */
function tmuxWrapper(sb: Sandbox): { path: string; starts(): string[] } {
  const dir = join(sb.dir, 'wrap');
  const log = join(sb.dir, 'tmux-starts.log');
  const real = ['/usr/bin/tmux', '/usr/local/bin/tmux', '/bin/tmux'].find((p) => existsSync(p))!;
  mkdirSync(dir);
  writeFileSync(join(dir, 'tmux'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(join(dir, 'tmux'), 0o755);
  return { path: `${dir}:${sb.env.PATH}`, starts: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) };
}

const status = (sb: Sandbox) => callSupervisor(fleetRuntime(sb.env).socket, { op: 'status' });

async function linkedFleet(sb: Sandbox, opts: StartFleetOptions = {}): Promise<Fleet> {
  const fleet = await startFleet(sb, { ...opts, env: { FLEETCOM_LOG_MS: '1', ...opts.env } });
  if (opts.env?.FLEETCOM_TMUX_CONTROL !== 'off') await waitFor(async () => (await status(sb)).tmuxLink?.events === true, { what: 'events over the control connection' });
  return fleet;
}

/** The epoch ms the supervisor stamped on the first log line matching `pattern` (FLEETCOM_LOG_MS). */
async function loggedAt(fleet: Fleet, pattern: string, what: string, timeout?: number): Promise<number> {
  const re = new RegExp(`^(\\d{13}) \\S+ ${pattern}`, 'm');
  return waitFor(async () => Number(re.exec(await fleet.log())?.[1] ?? 0) || false, { what, timeout });
}

interface Round {
  /** What comes before the change (it may reconcile: `ls`, a new window). */
  prepare?: () => Promise<void>;
  /** Makes one change; returns how long the supervisor took to log it. */
  measure: () => Promise<number>;
}

/**
 * Runs rounds until one ran no whole reconciliation while it was measured, so what saw the
 * change can only have been tmux's event; every round must be within `withinMs`. A periodic
 * reconciliation may fall into a round (every 5 s): such a round proves nothing, and the next
 * is run.
 */
async function seenByEvent(sb: Sandbox, rounds: Round[], withinMs: number): Promise<number> {
  for (const round of rounds) {
    await round.prepare?.();
    const before = (await status(sb)).tmuxLink!.reconciliations;
    const latency = await round.measure();
    const after = (await status(sb)).tmuxLink!.reconciliations;
    expect(latency).toBeLessThan(withinMs);
    if (after === before) return latency;
  }
  throw new Error(`a reconciliation ran during each of ${rounds.length} rounds: none shows that an event was enough`);
}

/**
 * Tasks whose process outlives its window (it ignores the SIGHUP tmux sends when the window is
 * killed, as a `nohup`ed one does): the process watch sees no death, only tmux's event (or a
 * reconciliation) tells the window is gone. Their processes are killed after the test.
 */
async function hangupProof(sb: Sandbox, fleet: Fleet, n: number) {
  const tasks = [];
  for (let i = 0; i < n; i++) {
    const task = await fleet.task(await fleet.run('sh', '-c', `trap '' HUP; exec sleep ${600 + i}`));
    const pid = Number((await sb.tmux('display-message', '-p', '-t', task.paneId, '#{pane_pid}')).trim());
    onTestFinished(() => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // ended already
      }
    });
    tasks.push(task);
  }
  return tasks;
}

/** Kill each task's window by hand, one round each. */
function killRounds(sb: Sandbox, fleet: Fleet, tasks: Array<{ id: number; windowId: string }>): Round[] {
  return tasks.map((task) => ({
    measure: async () => {
      const killed = Date.now();
      await sb.tmux('kill-window', '-t', task.windowId);
      return (await loggedAt(fleet, `task ${task.id}: its window was closed outside fleetcom`, `task ${task.id}'s window seen closed`)) - killed;
    },
  }));
}

describe('reads without a tmux process', () => {
  it.each<[string, Record<string, string>, (n: number) => void]>([
    ['over the control connection', {}, (n: number) => expect(n).toBe(0)],
    // The counter counts: without the connection every ls reconciles through a tmux client.
    ['FLEETCOM_TMUX_CONTROL=off', { FLEETCOM_TMUX_CONTROL: 'off' }, (n: number) => expect(n).toBeGreaterThanOrEqual(50)],
  ])('50 ls --json, next and the Tab: %s', async (_, env, check) => {
    const sb = await useSandbox();
    const wrapper = tmuxWrapper(sb);
    const fleet = await linkedFleet(sb, { path: wrapper.path, env });
    for (let i = 0; i < 3; i++) await fleet.run('sleep', String(600 + i));
    if (env.FLEETCOM_TMUX_CONTROL === undefined) expect(wrapper.starts().filter((s) => s.includes('-C attach-session'))).toHaveLength(1);
    const before = wrapper.starts().length;
    const reconciled = (await status(sb)).tmuxLink?.reconciliations ?? 0;
    for (let i = 0; i < 50; i++) expect((await fleet.cli('ls', '--json')).exitCode).toBe(0);
    for (let i = 0; i < 5; i++) expect((await fleet.cli('next')).stderr).toBe('no task needs you\n');
    for (let i = 0; i < 5; i++) expect((await fleet.cli('__complete', '--', 'rerun', '')).stdout).toMatch(/^1\t/);
    check(wrapper.starts().length - before);
    // Every ls read tmux (its reconciliation), over the connection.
    if (env.FLEETCOM_TMUX_CONTROL === undefined) expect((await status(sb)).tmuxLink!.reconciliations - reconciled).toBeGreaterThanOrEqual(50);
  });
});

describe('changes as events', () => {
  it('a window killed by hand is seen within a second, without a reconciliation', async () => {
    const sb = await useSandbox();
    const fleet = await linkedFleet(sb);
    await seenByEvent(sb, killRounds(sb, fleet, await hangupProof(sb, fleet, 3)), 1_000);
  });

  // tmux reports a title at most once a second; 1.5 s leaves room for a loaded machine (the
  // bench judges the latency itself: bench/tmux-events.bench.mjs).
  it('codex\'s approval prompt, from its title, within about a second and without a reconciliation', async () => {
    const sb = await useSandbox();
    const fleet = await linkedFleet(sb);
    const rounds = [0, 1, 2, 3].map((): Round => {
      let task: { id: number; paneId: string };
      return {
        prepare: async () => {
          task = await fleet.task(await fleet.run('codex'));
          await waitForText(sb, task.paneId, '›');
        },
        measure: async () => {
          const typed = Date.now();
          await typeLine(sb, task.paneId, 'please ask permission to touch a file');
          return (await loggedAt(fleet, `task ${task.id} permission`, `task ${task.id}'s approval prompt`)) - typed;
        },
      };
    });
    await seenByEvent(sb, rounds, 1_500);
  });

  it('gemini\'s states, from its title, each within about a second and without a reconciliation', async () => {
    const sb = await useSandbox();
    const gate = join(sb.dir, 'reply-gate');
    const fleet = await linkedFleet(sb, { env: { FAKE_GEMINI_REPLY_GATE: gate } });
    const id = await fleet.run('gemini');
    const task = await fleet.task(id);
    await loggedAt(fleet, `task ${id} waiting`, 'gemini ready');
    /** When the supervisor logged the `n`th (from 1) change of the task to `state`. */
    const nth = (state: string, n: number) => {
      const re = new RegExp(`^(\\d{13}) \\S+ task ${id} ${state}`, 'gm');
      return waitFor(async () => [...(await fleet.log()).matchAll(re)][n - 1]?.[1] ?? false, { what: `gemini ${state} (${n})` }).then(Number);
    };
    let turns = 0;
    const rounds = [0, 1, 2, 3].map((): Round => ({ measure: async () => {
      turns += 1;
      const typed = Date.now();
      await typeLine(sb, task.paneId, 'hello gemini');
      const working = (await nth('working', turns)) - typed;
      const released = Date.now();
      writeFileSync(gate, '');
      // The first `waiting` was the ready prompt's.
      const waiting = (await nth('waiting', turns + 1)) - released;
      return Math.max(working, waiting);
    } }));
    await seenByEvent(sb, rounds, 1_500);
  });
});

describe('when the connection or the server fails', () => {
  it('the control client killed: made again, said once; reads, exits and events go on', async () => {
    const sb = await useSandbox();
    const fleet = await linkedFleet(sb);
    const sleepers = await hangupProof(sb, fleet, 3);
    const controlPid = async () => Number((await sb.tmux('list-clients', '-F', '#{client_pid} #{client_termname}')).split('\n').find((l) => l.endsWith(` ${CONTROL_TERM}`))?.split(' ')[0] ?? 0);
    const first = await controlPid();
    process.kill(first, 'SIGKILL');
    expect((await fleet.cli('ls', '--json')).exitCode).toBe(0);
    await waitFor(async () => (await status(sb)).tmuxLink?.events === true && (await controlPid()) !== first, { what: 'a new control connection' });
    const log = await fleet.log();
    expect(log.match(/the tmux control connection is down/g)).toHaveLength(1);
    expect(log.match(/the tmux control connection is back/g)).toHaveLength(1);
    const done = await fleet.run('sh', '-c', 'exit 7');
    await fleet.waitTask(done, (t) => t.state === 'exited' && t.exitStatus === 7, 'the exit recorded');
    // Events again: a closed window seen at once.
    await seenByEvent(sb, killRounds(sb, fleet, sleepers), 1_000);
  });

  it('the supervisor killed (SIGKILL): its control client leaves with it, and the next up has one of its own', async () => {
    const sb = await useSandbox();
    const fleet = await linkedFleet(sb);
    await fleet.run('sleep', '600');
    const controls = async () => (await sb.tmux('list-clients', '-F', '#{client_pid} #{client_termname}')).split('\n').filter((l) => l.endsWith(` ${CONTROL_TERM}`)).map((l) => Number(l.split(' ')[0]));
    const [first] = await controls();
    await killSupervisor(sb, fleet);
    await waitFor(async () => (await controls()).length === 0 && !processAlive(first!), { what: 'the control client gone with its supervisor' });
    await upAgain(sb, fleet);
    await waitFor(async () => (await status(sb)).tmuxLink?.events === true, { what: 'the new supervisor\'s connection' });
    expect(await controls()).toHaveLength(1);
  });

  it.each([[{}], [{ FLEETCOM_TMUX_CONTROL: 'off' }]])('the server stopped then continued: ls waits for it, the Tab does not, as without the connection (%j)', async (env) => {
    const sb = await useSandbox();
    const fleet = await linkedFleet(sb, { env });
    await fleet.run('sleep', '600');
    const server = Number((await sb.tmux('display-message', '-p', '#{pid}')).trim());
    process.kill(server, 'SIGSTOP');
    onTestFinished(() => {
      try {
        process.kill(server, 'SIGCONT');
      } catch {
        // gone
      }
    });
    const started = Date.now();
    const ls = fleet.cli('ls', '--json').then((r) => ({ ...r, ms: Date.now() - started }));
    const tab = await fleet.cli('__complete', '--', 'rerun', '');
    expect(tab).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^1\t/) });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    process.kill(server, 'SIGCONT');
    const answered = await ls;
    expect(answered.exitCode).toBe(0);
    expect(answered.ms).toBeGreaterThanOrEqual(3_000);
    expect(JSON.parse(answered.stdout)).toHaveLength(1);
  });

  it.each([[{}], [{ FLEETCOM_TMUX_CONTROL: 'off' }]])('the server killed: the supervisor leaves, its control client with it, and ls says no fleet (%j)', async (env) => {
    const sb = await useSandbox();
    const fleet = await linkedFleet(sb, { env });
    await fleet.run('sleep', '600');
    const pid = await supervisorPid(sb, fleet.supervisorPane);
    const clients = (await sb.tmux('list-clients', '-F', '#{client_pid}')).split('\n').filter(Boolean).map(Number);
    await sb.killServer();
    await waitFor(() => !processAlive(pid) && clients.every((c) => !processAlive(c)), { what: 'the supervisor and its control client gone' });
    expect((await fleet.cli('ls')).exitCode).toBe(3);
  });
});
