// Planning new tasks before tmux makes their windows: ids in order, each spec's launch (how its
// agent is instrumented) and window. Pure but for what `inputs` reads; a spec that cannot be
// planned is reported by its index and the others still start.
import { planLaunch, type Launch, type LaunchInputs } from './launch.js';
import type { Task } from '../supervisor/task.js';
import type { WindowSpec } from '../tmux/tmux-port.js';
import type { WorktreeRecord } from '../../worktree-record.js';

export interface Spec {
  command: string;
  cwd: string;
  env: Record<string, string>;
  name: string | null;
  group: string | null;
  worktree?: WorktreeRecord | undefined;
}

export interface PlannedTask {
  /** The spec's index in the request. */
  index: number;
  /** The task, without its window and pane ids until tmux made them. */
  draft: Task;
  window: WindowSpec;
  pinned: string | null;
  /** Why its command was redirected (launch.ts), for the log. */
  rebound: string | null;
}

export function planSpawns(
  specs: readonly Spec[],
  firstId: number,
  inputs: LaunchInputs,
  at: { now: number; window: (draft: Task, launch: Launch) => WindowSpec },
): { planned: PlannedTask[]; failed: Map<number, Error> } {
  const planned: PlannedTask[] = [];
  const failed = new Map<number, Error>();
  const { now } = at;
  for (const [index, spec] of specs.entries()) {
    const id = firstId + planned.length;
    try {
      const launch = planLaunch({ id, run: 0, command: spec.command, cwd: spec.cwd, env: spec.env }, inputs);
      const draft: Task = {
        id, run: 0, cwd: spec.cwd, name: spec.name, group: spec.group, tagged: false,
        ...launchFields(launch), spawnedAt: now, windowId: '', paneId: '', exitHint: null, exitStatus: null,
        killed: false, endedAt: null, everHeld: [], env: spec.env, lastOutputAt: now, captured: null,
        ...(spec.worktree ? { worktree: spec.worktree } : {}),
      };
      planned.push({ index, draft, window: at.window(draft, launch), pinned: launch.pinnedId, rebound: launch.rebound });
    } catch (error) {
      failed.set(index, error as Error);
    }
  }
  return { planned, failed };
}

/** What a task records of its launch (a rerun records its new launch the same way). */
export function launchFields(launch: Launch) {
  const { command, harness, pinnedId, targetId, captureFile, home } = launch;
  return { command, harness, pinnedId, targetId, captureFile, home };
}
