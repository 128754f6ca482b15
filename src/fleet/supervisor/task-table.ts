// The supervisor's tasks by id, the next id to give, and each task's pane pid as tmux last
// reported it. Only a Supervisor holds one, privately, so every change runs on its queue.
import type { WatchTarget } from '../exits/process-watch.js';
import type { Task } from './task.js';

export class TaskTable {
  private readonly tasks = new Map<number, Task>();
  private next = 1;
  /** The pid (and terminal) with the run it belongs to: a rerun's new process counts once a reconciliation read it. */
  private readonly pids = new Map<number, { pid: number; tty: string | null; run: number }>();

  get size(): number {
    return this.tasks.size;
  }

  get nextId(): number {
    return this.next;
  }

  /** The tasks now, in id order of arrival (a copy: the table may change while it is walked). */
  values(): Task[] {
    return [...this.tasks.values()];
  }

  get(id: number): Task | undefined {
    return this.tasks.get(id);
  }

  /** A task by id (`3`), pane (`%12`) or window (`@7`). */
  lookup(ref: string): Task | undefined {
    if (ref.startsWith('%')) return this.byPane(ref);
    if (ref.startsWith('@')) return this.values().find((t) => t.windowId === ref);
    return this.tasks.get(Number(ref));
  }

  byPane(paneId: string): Task | undefined {
    return this.values().find((t) => t.paneId === paneId);
  }

  add(task: Task, panePid: number | null, paneTty: string | null = null): void {
    this.tasks.set(task.id, task);
    this.next = Math.max(this.next, task.id + 1);
    if (panePid) this.notePid(task, panePid, paneTty);
  }

  /** A dead supervisor's tasks, and its next id so no id is given twice. */
  adopt(tasks: readonly Task[], nextId: number): void {
    for (const task of tasks) this.tasks.set(task.id, task);
    this.next = Math.max(this.next, nextId);
  }

  delete(taskId: number): void {
    this.tasks.delete(taskId);
    this.pids.delete(taskId);
  }

  notePid(task: Task, pid: number, tty: string | null = null): void {
    this.pids.set(task.id, { pid, tty, run: task.run });
  }

  /** The pane pid known for the task's current run, or null. */
  panePid(task: Task): number | null {
    const known = this.pids.get(task.id);
    return known && known.run === task.run ? known.pid : null;
  }

  /** The pid the table knows is of the task's current run (an ending seen of an earlier run is not this run's). */
  knowsRun(task: Task): boolean {
    return this.pids.get(task.id)?.run === task.run;
  }

  /**
   * The pane pid and terminal of each running task whose current run's pid is known (for the
   * process watch); for an adopted run, the agent process it follows, under the pane's shell
   * or not, with its start tick (a pid reused by another process is not the agent).
   */
  runningPids(): Map<number, WatchTarget> {
    const running = new Map<number, WatchTarget>();
    for (const [id, { pid, tty, run }] of this.pids) {
      const task = this.tasks.get(id);
      if (!task || task.endedAt !== null || task.run !== run) continue;
      const followed = task.followed;
      running.set(id, followed ? { pid: followed.pid, tty, start: followed.start, outlivedByTty: followed.pid !== pid } : { pid, tty });
    }
    return running;
  }
}
