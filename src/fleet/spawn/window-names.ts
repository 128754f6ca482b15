// The last name given to each task's window, so a reconciliation renames only the windows
// whose glyph or label changed (a tmux call per window per tick would cost more than the tick).
import type { Attention } from '../../harness/index.js';
import { windowName, type Task } from '../supervisor/task.js';

export class WindowNames {
  private readonly given = new Map<number, string>();

  /** `idleMs`: output silence after which a running task's glyph turns idle. */
  constructor(private readonly idleMs?: number) {}

  /** The task's window name when it differs from the last one given (now recorded), else null. */
  changed(task: Task, now: number, attention: Attention | null = null): string | null {
    const name = windowName(task, now, this.idleMs, attention);
    if (this.given.get(task.id) === name) return null;
    this.given.set(task.id, name);
    return name;
  }

  forget(taskId: number): void {
    this.given.delete(taskId);
  }
}
