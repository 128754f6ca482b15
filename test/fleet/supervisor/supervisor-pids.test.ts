import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SupervisorDeps } from '../../../src/fleet/supervisor/fleet-state.js';
import { Supervisor } from '../../../src/fleet/supervisor/supervisor.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import type { FleetTmux, PaneInfo } from '../../../src/fleet/tmux/tmux-port.js';
import { tempDir } from '../../harness/fixtures.js';

// The supervisor tells the process watch the pane pid of every running task (the watch sees a
// death tmux missed); a task that ended or was forgotten is no longer watched.

const NOW = Date.UTC(2026, 10, 30, 18, 0, 0);

function pane(id: number, fields: Partial<PaneInfo> = {}): PaneInfo {
  return {
    paneId: `%${id}`, windowId: `@${id}`, dead: false, exited: false, deadStatus: null, deadSignal: null, pid: 1000 + id, activity: 0,
    task: String(id), run: '0', socket: null, windowName: null, ...fields,
  };
}

function task(id: number, cwd: string): Task {
  return {
    id, run: 0, cwd, command: 'sleep 9', name: null, group: null, tagged: false, harness: null, pinnedId: null,
    targetId: null, captureFile: null, home: null, spawnedAt: NOW, windowId: `@${id}`, paneId: `%${id}`,
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: NOW, captured: null,
  };
}

async function fleet(panes: { current: PaneInfo[] }) {
  const tmux = {
    listPanes: async () => panes.current,
    retainedText: async () => '',
    renameWindow: async () => undefined,
    renameWindows: async () => undefined,
    setWindowOptions: async () => undefined,
  } as unknown as FleetTmux;
  const deps = {
    tmux, statePath: path.join(tempDir(), 'state.json'), controlSocket: '/nonexistent/sock', paneDiedHook: '',
    tmuxSession: { id: '$0', name: 'fleet' }, installNamespace: () => '/nonexistent', capturePath: () => '/nonexistent',
    now: () => NOW, newId: () => '', log: () => undefined, onChange: () => undefined,
  } as unknown as SupervisorDeps;
  const supervisor = new Supervisor(deps);
  const cwd = tempDir(); // a rerun checks that its task's directory exists
  await supervisor.adopt({ tasks: [task(1, cwd), task(2, cwd), task(3, cwd)], nextId: 4, namespaces: [] });
  return { supervisor, watched: () => Object.fromEntries([...supervisor.runningPids()].map(([id, { pid }]) => [id, pid])) };
}

describe('the pids the supervisor watches', () => {
  it('are those of the running tasks, as tmux reports them', async () => {
    const panes = { current: [pane(1), pane(2), pane(3, { dead: true, deadStatus: 0 })] };
    const { supervisor, watched } = await fleet(panes);
    await supervisor.tick();
    expect(watched()).toEqual({ 1: 1001, 2: 1002 });
    expect(supervisor.taskList().find((t) => t.id === 3)?.exitStatus).toBe(0);
  });

  it('drop a task once it has exited, or its window is gone', async () => {
    const panes = { current: [pane(1), pane(2), pane(3)] };
    const { supervisor, watched } = await fleet(panes);
    await supervisor.tick();
    expect(watched()).toEqual({ 1: 1001, 2: 1002, 3: 1003 });
    panes.current = [pane(1, { dead: true, deadStatus: 3 }), pane(3, { pid: 2003 })];
    await supervisor.tick();
    expect(watched()).toEqual({ 3: 2003 });
    // A closed window's task stays listed, exited, until rm (its conversation is kept).
    expect(supervisor.taskList().map((t) => [t.id, t.endedAt !== null])).toEqual([[1, true], [2, true], [3, false]]);
  });
});

describe('a rerun', () => {
  it('is watched from the moment tmux started it: respawn-pane answers the new pid', async () => {
    const panes = { current: [pane(1, { dead: true, deadStatus: 0 }), pane(2), pane(3)] };
    const { supervisor, watched } = await fleet(panes);
    await supervisor.tick();
    expect(watched()).toEqual({ 2: 1002, 3: 1003 });
    const tmux = (supervisor as unknown as { fleet: { deps: { tmux: Record<string, unknown> } } }).fleet.deps.tmux;
    Object.assign(tmux, {
      globalEnvironment: async () => ({}),
      respawnPane: async () => ({ panePid: 5001, paneTty: '/dev/pts/9' }),
    });
    await supervisor.handle({ op: 'rerun', task: '1' });
    // No reconciliation has run since: the pid came with the respawn.
    expect(watched()).toEqual({ 1: 5001, 2: 1002, 3: 1003 });
  });
});
