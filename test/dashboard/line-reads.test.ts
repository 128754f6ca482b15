import { describe, expect, it } from 'vitest';
import { rowsToRead, type KnownLine } from '../../src/dashboard/line-reads.js';
import { IDLE_AFTER_MS, type Task } from '../../src/fleet/supervisor/task.js';

const NOW = Date.UTC(2026, 10, 30, 19, 0, 0);
const QUIET = NOW - IDLE_AFTER_MS - 1;

function task(id: number, fields: Partial<Task> = {}): Task {
  return {
    id, run: 0, cwd: '/w', command: 'sleep 9', name: null, group: null, tagged: false, harness: null, pinnedId: null,
    targetId: null, captureFile: null, home: null, spawnedAt: QUIET, windowId: `@${id}`, paneId: `%${id}`,
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: NOW, captured: null,
    ...fields,
  };
}

const known = (fields: Partial<KnownLine> = {}): KnownLine => ({ run: 0, ended: false, outputAt: QUIET, line: 'x', ...fields });
const read = (tasks: Task[], lines: Array<[number, KnownLine]>, visible = tasks.map((t) => t.id)) =>
  rowsToRead(tasks, visible, new Map(lines), NOW).map((t) => t.id);

describe('the rows the dashboard reads on its tick', () => {
  it.each([
    ['a row never read', [task(1)], [], [1]],
    ['a running row (output in the last 10 s)', [task(1)], [[1, known()]], [1]],
    ['an idle row with no output since it was read', [task(1, { lastOutputAt: QUIET })], [[1, known()]], []],
    ['an idle row that printed since (seen by the reconciliation)', [task(1, { lastOutputAt: QUIET + 1 })], [[1, known()]], [1]],
    ['a row read before its rerun', [task(1, { run: 1, lastOutputAt: QUIET })], [[1, known()]], [1]],
    ['a row that ended since it was read', [task(1, { lastOutputAt: QUIET, endedAt: NOW })], [[1, known()]], [1]],
    ['an ended row read after its end', [task(1, { endedAt: NOW })], [[1, known({ ended: true })]], []],
  ] as Array<[string, Task[], Array<[number, KnownLine]>, number[]]>)('%s: %j', (_label, tasks, lines, expected) => {
    expect(read(tasks, lines)).toEqual(expected);
  });

  it('reads only rows on screen', () => {
    expect(read([task(1), task(2), task(3)], [], [3, 1])).toEqual([1, 3]);
  });
});
