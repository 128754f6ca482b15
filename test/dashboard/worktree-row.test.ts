import { describe, expect, it } from 'vitest';
import { rowOf } from '../../src/dashboard/model.js';
import type { Task } from '../../src/fleet/supervisor/task.js';
import { statusLine } from '../../src/worktree-record.js';

describe("a worktree task's row", () => {
  const task = { id: 1, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, endedAt: null, lastOutputAt: 9_000, exitStatus: null, windowId: '@1', paneId: '%1' } as unknown as Task;
  const quiet = { attention: null, since: null, message: null, conversation: null };

  it('opens its line with the branch and its state as last read', () => {
    const branch = statusLine('feat-x', { ahead: 2, behind: 0, added: 10, deleted: 3, dirty: 4 });
    expect(rowOf(task, 10_000, 'thinking…', quiet, undefined, branch).line).toBe('⎇ feat-x ↑2 +10 −3 * · thinking…');
    expect(rowOf(task, 10_000, '', quiet, undefined, 'feat-x').line).toBe('⎇ feat-x');
    expect(rowOf(task, 10_000, 'thinking…', quiet).line).toBe('thinking…');
  });
});
