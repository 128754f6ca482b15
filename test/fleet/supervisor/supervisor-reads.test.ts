import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SupervisorDeps } from '../../../src/fleet/supervisor/fleet-state.js';
import { Supervisor } from '../../../src/fleet/supervisor/supervisor.js';
import type { FleetTmux, PaneInfo, WindowSpec } from '../../../src/fleet/tmux/tmux-port.js';
import { tempDir } from '../../harness/fixtures.js';

// A read (ls, next, status, save) is answered while a long change is in flight, from the state
// as it is; changes still run one after the other.

const NOW = Date.UTC(2026, 11, 1, 18, 0, 0);

/** A fake tmux whose newWindows waits until `release()`; every other change is recorded in `calls`. */
function gatedTmux() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const calls: string[] = [];
  const panes: PaneInfo[] = [];
  let next = 1;
  const tmux = {
    globalEnvironment: async () => ({}),
    newWindows: async (specs: WindowSpec[]) => {
      calls.push(`newWindows ${specs.length}`);
      if (calls.filter((c) => c.startsWith('newWindows')).length === 2) await gate; // the load's
      return specs.map(() => {
        const id = next++;
        panes.push({ paneId: `%${id}`, windowId: `@${id}`, dead: false, exited: false, deadStatus: null, deadSignal: null, pid: 1000 + id, activity: 0, task: null, run: null, socket: null, windowName: null });
        return { windowId: `@${id}`, paneId: `%${id}`, panePid: 1000 + id, paneTty: null };
      });
    },
    listPanes: async () => {
      calls.push('listPanes');
      return panes;
    },
    retainedText: async () => '',
    renameWindow: async () => undefined,
    renameWindows: async () => undefined,
    setWindowOptions: async () => undefined,
    setWindowOption: async () => undefined,
  } as unknown as FleetTmux;
  return { tmux, calls, release };
}

function supervisorOn(tmux: FleetTmux): Supervisor {
  return new Supervisor({
    tmux, statePath: path.join(tempDir(), 'state.json'), controlSocket: '/nonexistent/sock', paneDiedHook: '',
    tmuxSession: { id: '$0', name: 'fleet' }, installNamespace: () => tempDir(), capturePath: (dir: string, id: number, run: number) => path.join(dir, `task-${id}-${run}.json`),
    now: () => NOW, newId: () => 'x', log: () => undefined, onChange: () => undefined,
  } as unknown as SupervisorDeps);
}

describe('a read while a change is in flight', () => {
  it('is answered from the state as it is, before the load ends; a second change waits for the first', async () => {
    const { tmux, calls, release } = gatedTmux();
    const supervisor = supervisorOn(tmux);
    const cwd = tempDir();
    await supervisor.handle({ op: 'run', command: 'sleep 1', cwd, env: {}, name: null, group: null });
    let loaded = false;
    const load = supervisor.handle({ op: 'load', tasks: Array.from({ length: 5 }, () => ({ cwd, cmd: 'sleep 2', name: null, group: null })), env: {} })
      .then((r) => ((loaded = true), r));
    // The load is waiting for tmux: its windows are being made.
    await expect.poll(() => calls.includes('newWindows 5')).toBe(true);
    let renamed = false;
    const rename = supervisor.handle({ op: 'rename', task: '1', name: 'after the load' }).then((r) => ((renamed = true), r));
    const listed = await supervisor.handle({ op: 'ls' });
    expect(loaded).toBe(false);
    expect(renamed).toBe(false);
    expect(listed.map((t) => [t.id, t.name])).toEqual([[1, null]]);
    expect((await supervisor.handle({ op: 'status' })).tasks).toBe(1);
    expect((await supervisor.handle({ op: 'save' })).map((t) => t.cmd)).toEqual(['sleep 1']);
    // No reconciliation ran for those reads (it would have to wait its turn).
    expect(calls.filter((c) => c === 'listPanes')).toEqual([]);
    release();
    expect((await load).ids).toEqual([2, 3, 4, 5, 6]);
    expect((await rename).name).toBe('after the load');
    // Idle again: ls reconciles first, as before.
    expect((await supervisor.handle({ op: 'ls' })).map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(calls.at(-1)).toBe('listPanes');
  });
});

describe('a read while the fleet goes down', () => {
  it('is answered from the state without a reconciliation, also with the queue empty (fromState)', async () => {
    const { tmux, calls, release } = gatedTmux();
    release();
    const supervisor = supervisorOn(tmux);
    await supervisor.handle({ op: 'run', command: 'sleep 1', cwd: tempDir(), env: {}, name: null, group: null });
    const before = calls.length;
    // Between the tasks' stop and the teardown the queue is empty; a reconciliation then would
    // record every window `down` closed as closed outside fleetcom.
    expect((await supervisor.handle({ op: 'ls' }, true)).map((t) => t.id)).toEqual([1]);
    expect((await supervisor.handle({ op: 'status' }, true)).tasks).toBe(1);
    expect(calls.slice(before)).toEqual([]);
    // A change is not a read: it still goes on the queue.
    expect((await supervisor.handle({ op: 'rename', task: '1', name: 'x' }, true)).name).toBe('x');
  });

  it('an ls asking for the state as it is skips the reconciliation even when the fleet is idle', async () => {
    const { tmux, calls } = gatedTmux();
    const supervisor = supervisorOn(tmux);
    await supervisor.handle({ op: 'run', command: 'sleep 1', cwd: tempDir(), env: {}, name: null, group: null });
    const before = calls.length;
    expect((await supervisor.handle({ op: 'ls', fromState: true })).map((t) => t.id)).toEqual([1]);
    expect(calls.slice(before)).toEqual([]);
    expect((await supervisor.handle({ op: 'ls', fromState: false })).map((t) => t.id)).toEqual([1]);
    expect(calls.slice(before)).toEqual(['listPanes']);
  });
});
