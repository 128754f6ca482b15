// `fleetcom rm TASK [--worktree [--force] [--delete-branch]]`. Without --worktree the task goes
// and its worktree stays (said once). With it, every check comes first — git lists the path as
// a linked worktree of the recorded repository, no other task runs there, nothing uncommitted
// (or --force: saved first) — and a failed check refuses the whole rm, nothing changed.
import type { LsRecord } from '../../control/protocol.js';
import type { Deps } from '../../deps.js';
import { FleetError, UsageError } from '../../errors.js';
import { worktreeRegistryFile } from '../../paths.js';
import { checkRemoval, deleteBranchIfMerged, dirtyMessage, removeWorktree } from '../../worktrees/remove.js';
import { worktreeRecord } from '../../worktree-record.js';
import { ask } from '../ask.js';

export interface RmOptions {
  worktree?: boolean;
  force?: boolean;
  deleteBranch?: boolean;
}

/** The task `ref` names (an id, %pane or @window) in an `ls` reply. */
export function taskOf(tasks: readonly LsRecord[], ref: string): LsRecord {
  const task = tasks.find((t) => String(t.id) === ref || t.paneId === ref || t.windowId === ref);
  if (task === undefined) throw new FleetError(`no task ${ref} in this fleet (see fleetcom ls)`);
  return task;
}

export async function runRm(ref: string, opts: RmOptions, deps: Deps): Promise<number> {
  if (!opts.worktree && (opts.force || opts.deleteBranch)) throw new UsageError('--force and --delete-branch go with --worktree');
  const tasks = await ask(deps, { op: 'ls' });
  const task = taskOf(tasks, ref);
  const worktree = task.worktree ? worktreeRecord(task.worktree) : null;
  if (!opts.worktree) {
    await ask(deps, { op: 'rm', task: ref });
    if (worktree !== null) deps.stderr.write(`the worktree ${worktree.path} (branch ${worktree.branch}) stays; fleetcom worktrees lists it\n`);
    return 0;
  }
  if (worktree === null) throw new FleetError(`task ${task.id} runs in no worktree fleetcom made; nothing removed`);
  const others = tasks.filter((t) => t.id !== task.id && t.worktree?.path === worktree.path).map((t) => t.id);
  const check = await checkRemoval(worktree, others);
  if (check.refused !== null) throw new FleetError(`task ${task.id} not removed: ${check.refused}`);
  if (check.dirty.length > 0 && !opts.force) throw new FleetError(`task ${task.id} not removed: ${dirtyMessage(worktree, check.dirty)}`);
  // The task's processes stop before its files are read for the last time.
  await ask(deps, { op: 'rm', task: ref });
  for (const line of await removeWorktree(worktree, { force: opts.force === true, registryFile: worktreeRegistryFile(deps.env), now: new Date(deps.now()) })) {
    deps.stderr.write(`${line}\n`);
  }
  if (opts.deleteBranch) deps.stderr.write(`${(await deleteBranchIfMerged(worktree)).message}\n`);
  return 0;
}
