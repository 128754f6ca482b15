import { describe, expect, it } from 'vitest';
import { TaskTable } from '../../../src/fleet/supervisor/task-table.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';

function task(id: number, fields: Partial<Task> = {}): Task {
  return {
    id, run: 0, cwd: '/w', command: 'sleep 9', name: null, group: null, tagged: false, harness: null, pinnedId: null,
    targetId: null, captureFile: null, home: null, spawnedAt: 0, windowId: `@${id + 10}`, paneId: `%${id + 20}`,
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: 0, captured: null,
    ...fields,
  };
}

const pids = (table: TaskTable) => Object.fromEntries([...table.runningPids()].map(([id, { pid }]) => [id, pid]));

describe('the task table', () => {
  it('finds a task by id, %pane or @window, and nothing for a ref of another task or none', () => {
    const table = new TaskTable();
    table.add(task(1), null);
    table.add(task(2), null);
    expect(table.lookup('2')?.id).toBe(2);
    expect(table.lookup('%21')?.id).toBe(1);
    expect(table.lookup('@12')?.id).toBe(2);
    for (const ref of ['3', '%99', '@99', '%', '']) expect(table.lookup(ref), ref).toBeUndefined();
  });

  it('never gives an id twice: the next id passes every task added or adopted', () => {
    const table = new TaskTable();
    expect(table.nextId).toBe(1);
    table.adopt([task(4), task(2)], 3); // a dead supervisor's nextId may lag its own tasks
    expect(table.nextId).toBe(3);
    table.add(task(7), null);
    expect(table.nextId).toBe(8);
    table.adopt([], 5);
    expect(table.nextId).toBe(8);
    table.delete(7);
    expect(table.nextId).toBe(8);
    expect(table.values().map((t) => t.id)).toEqual([4, 2]);
  });

  it('watches the pid of a running task only for the run it was read in', () => {
    const table = new TaskTable();
    const [a, b, c] = [task(1), task(2), task(3)];
    table.add(a, 1001, '/dev/pts/3');
    table.add(b, 1002);
    table.add(c, null); // tmux did not say: nothing to watch until a reconciliation reads it
    expect(pids(table)).toEqual({ 1: 1001, 2: 1002 });
    expect(table.runningPids().get(1)?.tty).toBe('/dev/pts/3'); // the terminal the watch can watch
    a.run = 1; // rerun: the old pid is not the new run's
    b.endedAt = 5;
    table.notePid(c, 1003);
    expect(pids(table)).toEqual({ 3: 1003 });
    table.notePid(a, 2001);
    table.delete(3);
    expect(pids(table)).toEqual({ 1: 2001 });
  });

  it('hands out copies, so a walk survives the table changing under it', () => {
    const table = new TaskTable();
    table.add(task(1), null);
    table.add(task(2), null);
    const seen: number[] = [];
    for (const t of table.values()) {
      table.delete(t.id);
      seen.push(t.id);
    }
    expect(seen).toEqual([1, 2]);
    expect(table.size).toBe(0);
  });
});
