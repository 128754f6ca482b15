import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { downInOrder } from '../../../src/fleet/lifecycle/down-order.js';
import { RecoveryWriter } from '../../../src/fleet/recovery/recovery-writer.js';
import type { SupervisorDeps } from '../../../src/fleet/supervisor/fleet-state.js';
import { Supervisor } from '../../../src/fleet/supervisor/supervisor.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import type { FleetTmux, PaneInfo } from '../../../src/fleet/tmux/tmux-port.js';
import { recoveryDir } from '../../../src/sessions/recovery.js';
import { tempDir } from '../../harness/fixtures.js';

// `down`'s real order (down-order.ts) with a real Supervisor and a real recovery writer; only
// tmux is a fake, one whose pane can outlive SIGKILL (a task in uninterruptible sleep does; a
// real one cannot be made so deterministically). The fake reads the snapshot file each time
// the supervisor lists panes, so a snapshot marked closed while a pane still runs is seen
// even when a failed `down` reopens it afterwards. The clock is faked: stopping waits 2 s for
// SIGTERM and 10 s for SIGKILL.

/** Above Linux's PID_MAX_LIMIT (2^22): no process can have it, so the real signals sent reach nobody. */
const NO_PID = 2 ** 22 + 1;

function task(): Task {
  return {
    id: 1, run: 0, cwd: '/w', command: 'sleep 600', name: null, group: null, tagged: false, harness: null, pinnedId: null,
    targetId: null, captureFile: null, home: null, spawnedAt: 0, windowId: '@1', paneId: '%1', exitHint: null,
    exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: 0, captured: null,
  };
}

/**
 * A fleet of one running task and its snapshot on disk. `diesAfter`: the signal round after
 * which tmux reports the pane dead (1 = SIGTERM, 2 = SIGKILL, Infinity = never).
 */
async function fleet(diesAfter: number, tearDownFails = false) {
  const dir = tempDir();
  const sessionDir = join(dir, 'sessions');
  const snapshot = () => {
    const names = existsSync(recoveryDir(sessionDir)) ? readdirSync(recoveryDir(sessionDir)).filter((n) => n.endsWith('.json')) : [];
    return names.length === 1 ? (JSON.parse(readFileSync(join(recoveryDir(sessionDir), names[0]!), 'utf8')) as { closed?: boolean; dirs: unknown }) : null;
  };
  let rounds = 0;
  const seen: Array<{ alive: boolean; closed: boolean | undefined }> = [];
  const killed: string[] = [];
  const pane = (): PaneInfo => {
    const dead = rounds >= diesAfter;
    return {
      paneId: '%1', windowId: '@1', dead, exited: dead, deadStatus: null, deadSignal: dead ? 9 : null, pid: NO_PID,
      activity: 0, task: '1', run: '0', socket: null, windowName: null,
    };
  };
  const tmux: Partial<FleetTmux> = {
    listPanes: async () => {
      const now = pane();
      seen.push({ alive: !now.dead, closed: snapshot()?.closed });
      return [now];
    },
    livePanePids: async (ids) => {
      const live = new Map(pane().dead ? [] : ids.map((id) => [id, NO_PID] as [string, number]));
      rounds += 1; // the signal of this round goes out next
      return live;
    },
    killWindows: async (windowIds) => void killed.push(...windowIds),
  };
  const deps = {
    tmux, statePath: join(dir, 'state.json'), tmuxSession: { id: '$0', name: 'fleet' }, now: () => Date.now(),
    log: () => undefined, onChange: () => undefined,
  } as unknown as SupervisorDeps;
  const supervisor = new Supervisor(deps);
  await supervisor.adopt({ tasks: [task()], nextId: 2, namespaces: [] });
  const recovery = new RecoveryWriter({
    tasks: () => supervisor.recipe(), sessionDir, startedAt: new Date('2026-11-30T20:00:00Z'), pid: 4242, home: dir, log: () => undefined,
  });
  await recovery.flush();
  const steps: string[] = [];
  const down = downInOrder({
    stopTasks: () => supervisor.stopAll(),
    snapshot: recovery,
    tearDown: async () => {
      steps.push(`torn down, snapshot closed: ${snapshot()?.closed}`);
      if (tearDownFails) throw new Error('state.json: read-only file system');
    },
  });
  return { down: finish(down), snapshot, seen, killed, steps, recovery };
}

/** Runs the faked clock until `work` settles; real file writes get their turn in between. */
async function finish(work: Promise<void>): Promise<Error | null> {
  let outcome: Error | null | undefined;
  work.then(() => (outcome = null), (error: Error) => (outcome = error));
  while (outcome === undefined) {
    await vi.advanceTimersByTimeAsync(50);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return outcome;
}

describe('down', () => {
  afterEach(() => void vi.useRealTimers());

  it('never marks the snapshot closed while a task outlives SIGKILL, and tears nothing down', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const f = await fleet(Infinity);
    expect(JSON.stringify(f.snapshot())).toContain('sleep 600');
    const error = await f.down;
    expect(error?.message).toBe('task(s) 1 still running after SIGKILL');
    expect(f.seen.filter((s) => s.alive).length).toBeGreaterThan(1);
    expect(f.seen.filter((s) => s.closed === true)).toEqual([]);
    expect(f.snapshot()?.closed).toBeUndefined();
    expect(f.steps).toEqual([]);
    expect(f.killed).toEqual([]);
  });

  it('marks the snapshot closed once every task has stopped, and only then tears down', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const f = await fleet(2);
    expect(await f.down).toBeNull();
    expect(f.seen.some((s) => s.alive)).toBe(true);
    expect(f.seen.filter((s) => s.alive && s.closed === true)).toEqual([]);
    expect(f.snapshot()?.closed).toBe(true);
    expect(f.steps).toEqual(['torn down, snapshot closed: true']);
    expect(f.killed).toEqual(['@1']);
  });

  it('keeps the snapshot closed when the teardown fails after every task stopped, until a task starts again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const f = await fleet(2, true);
    expect((await f.down)?.message).toBe('state.json: read-only file system');
    expect(f.steps).toEqual(['torn down, snapshot closed: true']);
    // The fleet serves on; a later change alone does not reopen the snapshot.
    f.recovery.changed();
    await finish(new Promise<void>((resolve) => setTimeout(resolve, 5_000)));
    expect(f.snapshot()?.closed).toBe(true);
    // A task started in that fleet makes it live again: the next snapshot is not closed.
    f.recovery.taskStarting();
    await finish(new Promise<void>((resolve) => setTimeout(resolve, 5_000)));
    await f.recovery.flush(); // after the write the debounce started
    expect(f.snapshot()?.closed).toBeUndefined();
  });

  it('is not reopened by a task starting once the supervisor left its tasks to a later up', async () => {
    const dir = tempDir();
    const writes: string[] = [];
    const recovery = new RecoveryWriter({
      tasks: () => [{ cwd: '/w', cmd: 'sleep 600', name: null, group: null }], sessionDir: join(dir, 'sessions'),
      startedAt: new Date('2026-11-30T20:00:00Z'), pid: 4242, home: dir, log: () => undefined,
      write: async (_file, text) => void writes.push(text),
    });
    await recovery.close(false);
    recovery.taskStarting();
    await recovery.flush();
    expect(writes).toHaveLength(1);
    expect(writes[0]).not.toContain('"closed"');
  });
});
