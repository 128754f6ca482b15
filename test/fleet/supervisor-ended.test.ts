import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SupervisorDeps } from '../../src/fleet/fleet-state.js';
import { Supervisor } from '../../src/fleet/supervisor.js';
import type { Task } from '../../src/fleet/task.js';
import type { FleetTmux, PaneInfo } from '../../src/fleet/tmux-port.js';
import { ID, tempDir } from '../harness/fixtures.js';

// A task's process seen ended by the process watch (or found by it when a pane-died hook
// fires): the supervisor reads that one pane and its text in one tmux call and records the
// exit, without a reconciliation or a second read of the text. Nothing here runs tmux.

const NOW = Date.UTC(2026, 10, 30, 20, 0, 0);
const HINT = `Resume this session with:\nclaude --resume ${ID}\n`;

function pane(fields: Partial<PaneInfo> = {}): PaneInfo {
  return {
    paneId: '%1', windowId: '@1', dead: false, exited: false, deadStatus: null, deadSignal: null, pid: 4321, activity: NOW,
    task: '1', run: '0', socket: null, windowName: 'claude', ...fields,
  };
}

interface Calls {
  endedPane: number;
  listPanes: number;
  reaps: number;
}

/** A supervisor with one running claude task whose pid a reconciliation has read. */
async function fleet(reads: Array<PaneInfo | null>, listed = { panes: [pane()] }): Promise<{ s: Supervisor; task: Task; logs: string[]; calls: Calls }> {
  const logs: string[] = [];
  const calls: Calls = { endedPane: 0, listPanes: 0, reaps: 0 };
  const tmux: Partial<FleetTmux> = {
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
    renameWindow: async () => undefined,
    renameWindows: async () => undefined,
    setWindowOptions: async () => undefined,
  };
  const deps = { tmux, statePath: join(tempDir(), 'state.json'), tmuxSession: { id: '$0', name: 'fleet' }, now: () => NOW, log: (line: string) => logs.push(line), onChange: () => undefined } as unknown as SupervisorDeps;
  const s = new Supervisor(deps);
  const task: Task = {
    id: 1, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, harness: 'claude', pinnedId: ID,
    targetId: null, captureFile: null, home: '/nonexistent', spawnedAt: NOW - 60_000, windowId: '@1', paneId: '%1',
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: NOW, captured: null,
  };
  await s.adopt({ tasks: [task], nextId: 2, namespace: null });
  await s.tick();
  calls.listPanes = 0;
  return { s, task, logs, calls };
}

describe('a process the watch saw end', () => {
  it('is recorded from one read of its pane and text, with the status tmux reaped', async () => {
    const { s, task, logs, calls } = await fleet([pane({ dead: true, exited: true, deadStatus: 2 })]);
    await s.processEnded(1, { kind: 'gone' });
    expect(task).toMatchObject({ exitStatus: 2, exitHint: ID, endedAt: NOW, killed: false });
    expect(logs).toContain(`task 1 exited with status 2; exit hint ${ID}`);
    expect(calls).toEqual({ endedPane: 1, listPanes: 0, reaps: 0 });
  });

  it('takes a zombie’s own status while tmux has not reaped it, then makes tmux reap it', async () => {
    const { s, task, calls } = await fleet([pane({ exited: true })]);
    await s.processEnded(1, { kind: 'zombie', exitStatus: 7 });
    expect(task).toMatchObject({ exitStatus: 7, exitHint: ID, killed: false });
    expect(calls.reaps).toBe(1);
  });

  it('reads the pane again while tmux has not yet read the last of its output', async () => {
    const { s, task, calls } = await fleet([pane(), pane(), pane({ dead: true, exited: true, deadStatus: 0 })]);
    await s.processEnded(1, { kind: 'zombie', exitStatus: 0 });
    expect(task.endedAt).toBeNull();
    await waitUntil(() => task.endedAt !== null);
    expect(task).toMatchObject({ exitStatus: 0, exitHint: ID });
    expect(calls.endedPane).toBe(3);
  });

  it('leaves a pane that is gone to a reconciliation, which keeps the task as exited', async () => {
    const listed = { panes: [pane()] };
    const { s, task, calls } = await fleet([null], listed);
    listed.panes = [];
    await s.processEnded(1, { kind: 'gone' });
    expect(calls).toMatchObject({ endedPane: 1, listPanes: 1 });
    expect(task).toMatchObject({ paneId: '', endedAt: NOW, exitStatus: null });
  });

  it('ignores an ending of a run that is no longer the task’s, and a task already ended', async () => {
    const { s, task, calls } = await fleet([pane({ dead: true, exited: true, deadStatus: 1 })]);
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
