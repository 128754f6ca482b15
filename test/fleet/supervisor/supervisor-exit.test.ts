import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SupervisorDeps } from '../../../src/fleet/supervisor/fleet-state.js';
import { STATUS_WAIT_MS } from '../../../src/fleet/exits/reconcile.js';
import { Supervisor } from '../../../src/fleet/supervisor/supervisor.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import type { FleetTmux, PaneInfo } from '../../../src/fleet/tmux/tmux-port.js';
import { ID, tempDir } from '../../harness/fixtures.js';

// How the supervisor reads a pane that is over: reaped with a status, killed by a signal, or
// dead while tmux 3.3a has not reaped it (status unknown). The pane states are the ones a real
// tmux reports (integration/fleet/unreaped-exit.test.ts); nothing here runs tmux. Then a
// process the process watch saw end: its pane and text read in one tmux call, without a
// reconciliation or a second read of the text.

const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);
const HINT = `Resume this session with:\nclaude --model opus --resume ${ID}\n`;

function pane(fields: Partial<PaneInfo>): PaneInfo {
  return {
    paneId: '%1', windowId: '@1', dead: false, exited: false, deadStatus: null, deadSignal: null, pid: 10, activity: NOW,
    task: '1', run: '0', socket: null, windowName: 'claude', ...fields,
  };
}

/** A supervisor with one running claude task in pane %1; `tmux` replaces the fake's calls. */
async function supervisorWith(p: PaneInfo, tmuxCalls: Partial<FleetTmux> = {}, clock = { now: NOW }): Promise<{ s: Supervisor; task: Task; logs: string[] }> {
  const logs: string[] = [];
  const tmux: Partial<FleetTmux> = {
    listPanes: async () => [p],
    retainedText: async () => HINT,
    renameWindow: async () => undefined,
    setWindowOptions: async () => undefined,
    renameWindows: async () => undefined,
    ...tmuxCalls,
  };
  const deps = { tmux, statePath: join(tempDir(), 'state.json'), tmuxSession: { id: '$0', name: 'fleet' }, now: () => clock.now, log: (line: string) => logs.push(line), onChange: () => undefined } as unknown as SupervisorDeps;
  const s = new Supervisor(deps);
  const task: Task = {
    id: 1, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, harness: 'claude', pinnedId: ID,
    targetId: null, captureFile: null, home: '/nonexistent', spawnedAt: NOW - 60_000, windowId: '@1', paneId: '%1',
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: NOW, captured: null,
  };
  await s.adopt({ tasks: [task], nextId: 2, namespaces: [] });
  return { s, task, logs };
}

describe('Supervisor exits', () => {
  it.each([
    ['reaped with status 0', { dead: true, exited: true, deadStatus: 0 }, 0, false, 'exited with status 0'],
    ['killed by SIGKILL', { dead: true, exited: true, deadSignal: 9 }, null, true, 'was killed by signal 9'],
  ] as const)('records a pane %s, its hint scraped', async (_label, fields, status, killed, how) => {
    for (const via of ['paneDied', 'reconcile'] as const) {
      const { s, task, logs } = await supervisorWith(pane(fields));
      await (via === 'paneDied' ? s.handle({ op: 'pane-died', pane: '%1' }) : s.tick());
      expect(task, via).toMatchObject({ exitStatus: status, killed, exitHint: ID, endedAt: NOW });
      expect(logs, via).toEqual([`task 1 ${how}; exit hint ${ID}`]);
    }
  });

  it('waits for the status of a pane whose terminal closed before tmux reaped it, and records it once reaped', async () => {
    const listed = { panes: [pane({ exited: true })] };
    const clock = { now: NOW };
    const { s, task, logs } = await supervisorWith(pane({}), { listPanes: async () => listed.panes }, clock);
    await s.tick();
    expect(task.endedAt).toBeNull();
    clock.now += 500;
    listed.panes = [pane({ dead: true, exited: true, deadStatus: 0 })];
    await s.tick();
    expect(task).toMatchObject({ exitStatus: 0, endedAt: NOW + 500 });
    expect(logs).toEqual([`task 1 exited with status 0; exit hint ${ID}`]);
  });

  it('records a pane that stays unreaped (tmux missed the SIGCHLD) with its status unknown, after a while', async () => {
    const clock = { now: NOW };
    const { s, task, logs } = await supervisorWith(pane({ exited: true }), {}, clock);
    await s.tick();
    expect(task.endedAt).toBeNull();
    clock.now += STATUS_WAIT_MS;
    await s.tick();
    expect(task).toMatchObject({ exitStatus: null, killed: false, exitHint: ID, endedAt: NOW + STATUS_WAIT_MS });
    expect(logs).toEqual([`task 1 exited (status unknown); exit hint ${ID}`]);
    // The pane-died hook fires only once tmux knows the status: then it is recorded at once.
    const hooked = await supervisorWith(pane({ exited: true }));
    await hooked.s.handle({ op: 'pane-died', pane: '%1' });
    expect(hooked.task.endedAt).toBe(NOW);
  });

  it('leaves a live pane alone', async () => {
    const { s, task } = await supervisorWith(pane({}));
    await s.handle({ op: 'pane-died', pane: '%1' });
    await s.tick();
    expect(task.endedAt).toBeNull();
  });
});

interface Calls {
  endedPane: number;
  listPanes: number;
  reaps: number;
}

/** One running claude task whose pid a reconciliation has read; `reads` are endedPane's answers in turn. */
async function ending(reads: Array<PaneInfo | null>, listed = { panes: [pane({ pid: 4321 })] }) {
  const calls: Calls = { endedPane: 0, listPanes: 0, reaps: 0 };
  const fleet = await supervisorWith(pane({}), {
    listPanes: async () => {
      calls.listPanes += 1;
      return listed.panes;
    },
    endedPane: async () => {
      const read = reads[Math.min(calls.endedPane, reads.length - 1)] ?? null;
      calls.endedPane += 1;
      return read && { pane: read, text: HINT };
    },
    retainedText: async () => {
      throw new Error('the text was read already');
    },
    reapChildren: async () => {
      calls.reaps += 1;
    },
  });
  await fleet.s.tick();
  calls.listPanes = 0;
  return { ...fleet, calls };
}

describe('a process the watch saw end', () => {
  it('is recorded from one read of its pane and text, with the status tmux reaped', async () => {
    const { s, task, logs, calls } = await ending([pane({ dead: true, exited: true, deadStatus: 2 })]);
    await s.processEnded(1, { kind: 'gone' });
    expect(task).toMatchObject({ exitStatus: 2, exitHint: ID, endedAt: NOW, killed: false });
    expect(logs).toContain(`task 1 exited with status 2; exit hint ${ID}`);
    expect(calls).toEqual({ endedPane: 1, listPanes: 0, reaps: 0 });
  });

  it('takes a zombie’s own status while tmux has not reaped it, then makes tmux reap it', async () => {
    const { s, task, calls } = await ending([pane({ exited: true })]);
    await s.processEnded(1, { kind: 'zombie', exitStatus: 7 });
    expect(task).toMatchObject({ exitStatus: 7, exitHint: ID, killed: false });
    expect(calls.reaps).toBe(1);
  });

  it('waits for tmux’s status when the terminal closed before tmux reaped the process', async () => {
    const { s, task, calls } = await ending([pane({ exited: true }), pane({ dead: true, exited: true, deadStatus: 0 })]);
    await s.processEnded(1, { kind: 'closed' });
    expect(task.endedAt).toBeNull();
    expect(calls.reaps).toBe(1);
    await waitUntil(() => task.endedAt !== null);
    expect(task).toMatchObject({ exitStatus: 0, exitHint: ID, killed: false });
  });

  it('reads the pane again while tmux has not yet read the last of its output', async () => {
    const { s, task, calls } = await ending([pane({}), pane({}), pane({ dead: true, exited: true, deadStatus: 0 })]);
    await s.processEnded(1, { kind: 'zombie', exitStatus: 0 });
    expect(task.endedAt).toBeNull();
    await waitUntil(() => task.endedAt !== null);
    expect(task).toMatchObject({ exitStatus: 0, exitHint: ID });
    expect(calls.endedPane).toBe(3);
  });

  it('leaves a pane that is gone to a reconciliation, which keeps the task as exited', async () => {
    const listed = { panes: [pane({})] };
    const { s, task, calls } = await ending([null], listed);
    listed.panes = [];
    await s.processEnded(1, { kind: 'gone' });
    expect(calls).toMatchObject({ endedPane: 1, listPanes: 1 });
    expect(task).toMatchObject({ paneId: '', endedAt: NOW, exitStatus: null });
  });

  it('ignores an ending of a run that is no longer the task’s, and a task already ended', async () => {
    const { s, task, calls } = await ending([pane({ dead: true, exited: true, deadStatus: 1 })]);
    task.run = 1; // rerun since the watch read the pid
    await s.processEnded(1, { kind: 'gone' });
    expect(calls.endedPane).toBe(0);
    task.run = 0;
    task.endedAt = NOW - 1;
    await s.processEnded(1, { kind: 'gone' });
    expect(calls.endedPane).toBe(0);
  });
});

async function waitUntil(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
