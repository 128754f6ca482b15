import { describe, expect, it } from 'vitest';
import { recordOf, taskSchema, type TaskRecord } from '../../../src/fleet/supervisor/task-record.js';

const record: TaskRecord = {
  id: 3, run: 1, cwd: '/w', command: 'claude', name: null, group: 'g', tagged: false, harness: 'claude',
  pinnedId: null, targetId: null, captureFile: '/r/1-abcdefabcdef/task-3-1.json', home: '/h/.claude', spawnedAt: 1_000,
  windowId: '@1', paneId: '%1', exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: ['x'],
  // The id the capture last named is kept: the capture file can be swept with its namespace.
  captured: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
};

describe('recordOf', () => {
  it("keeps exactly the schema's keys of a task, never what lives in memory only (its environment)", () => {
    const task = { ...record, env: { SECRET_API_KEY: 'sk' }, lastOutputAt: 5, parkedJob: null };
    const kept = recordOf(task);
    expect(kept).toEqual(record);
    expect(Object.keys(kept).sort()).toEqual(Object.keys(taskSchema.shape).sort());
  });

  it('gives a record the schema reads back unchanged', () => {
    expect(taskSchema.parse(JSON.parse(JSON.stringify(recordOf(record))))).toEqual(record);
  });
});
