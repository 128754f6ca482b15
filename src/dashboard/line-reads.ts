// Which rows' screens the dashboard reads on its 1 s tick. Pure. A row is read while it is on
// screen and its line can change: not once its run has ended and been read, and not while it
// stays idle with no output since the last read (the 2 s reconciliation moves lastOutputAt
// when it prints again). Reading 50 idle rows every second was a tmux client a second: the
// dashboard's idle CPU went from 1.8 % to 1.2 % of a core without it (npm run bench, 2 cores).
import { taskState, type Task } from '../fleet/supervisor/task.js';

/** What the dashboard last read of a task's screen. */
export interface KnownLine {
  run: number;
  /** The task had ended when it was read. */
  ended: boolean;
  /** The task's lastOutputAt when it was read. */
  outputAt: number;
  line: string;
}

export function rowsToRead(
  tasks: readonly Task[],
  visible: readonly number[],
  known: ReadonlyMap<number, KnownLine>,
  now: number,
  idleMs?: number,
): Task[] {
  const onScreen = new Set(visible);
  return tasks.filter((task) => {
    if (!onScreen.has(task.id)) return false;
    const read = known.get(task.id);
    if (!read || read.run !== task.run) return true;
    if (read.ended) return false;
    return task.endedAt !== null || taskState(task, now, idleMs) !== 'idle' || task.lastOutputAt !== read.outputAt;
  });
}
