// A saved worktree task coming back (load, up NAME, recover): its worktree used when git lists
// it at the same path on the same branch, made again AT THE SAME PATH when it is gone (claude
// files conversations under the directory they ran in), and refused — with one line saying
// why — when the repository or the branch is gone or the path holds something else.
import path from 'node:path';
import type { WorktreeRecord } from '../worktree-record.js';
import { checkBranchName } from './names.js';
import { addWorktree, exists, underRepoLock } from './create.js';
import { madeAt, remember } from './registry.js';
import { branchExists, isRepoRoot, listWorktrees, realPath } from './repo.js';
import { prepareCheckout, type SetupOptions } from './setup.js';

export type WorktreeCondition =
  | { state: 'present' }
  | { state: 'missing' }
  | { state: 'refused'; why: string };

/** What a load would do with this worktree; changes nothing (doctor asks the same). */
export async function worktreeCondition(record: WorktreeRecord): Promise<WorktreeCondition> {
  // A recipe is a file anyone may have written: its branch goes into git's argv only once git's own rule accepts it.
  const named = await checkBranchName(record.branch).then(() => null, (error: Error) => error.message);
  if (named !== null) return { state: 'refused', why: named.replace(/^--worktree /, 'branch ') };
  if (!path.isAbsolute(record.repo) || !path.isAbsolute(record.path)) return { state: 'refused', why: 'the repository and the worktree must be absolute paths' };
  if (!exists(record.repo) || !(await isRepoRoot(record.repo))) return { state: 'refused', why: `the repository ${record.repo} is gone` };
  const listed = await listWorktrees(record.repo);
  const at = listed.find((w) => w.path === record.path || realPath(w.path) === realPath(record.path));
  if (at !== undefined && at.prunable === null) {
    return at.branch === record.branch ? { state: 'present' } : { state: 'refused', why: `${record.path} is now a worktree of ${at.branch ?? 'a detached HEAD'}, not of ${record.branch}` };
  }
  if (exists(record.path)) return { state: 'refused', why: `${record.path} holds something else than the worktree of ${record.branch}` };
  if (!(await branchExists(record.repo, record.branch))) return { state: 'refused', why: `branch ${record.branch} is gone from ${record.repo}` };
  const elsewhere = listed.find((w) => w.branch === record.branch && w.prunable === null);
  if (elsewhere !== undefined) return { state: 'refused', why: `branch ${record.branch} is checked out at ${elsewhere.path}` };
  return { state: 'missing' };
}

/** Makes the worktree present; the reason it cannot, or null. */
export async function restoreWorktree(record: WorktreeRecord, opts: { registryFile: string; setup: SetupOptions }): Promise<string | null> {
  const pre = await worktreeCondition(record);
  if (pre.state !== 'missing') return pre.state === 'refused' ? pre.why : null;
  const made = await underRepoLock(opts.registryFile, record.repo, async (): Promise<true | string | null> => {
    // Asked again under the lock: a run of that branch may have made it meanwhile.
    const condition = await worktreeCondition(record);
    if (condition.state !== 'missing') return condition.state === 'refused' ? condition.why : null;
    const listed = await listWorktrees(record.repo);
    const registered = listed.find((w) => w.path === record.path || realPath(w.path) === realPath(record.path));
    await addWorktree(record, registered, true);
    await remember(opts.registryFile, { ...record, ready: false });
    return true;
  });
  if (made !== true) return made;
  opts.setup.say(`re-created the worktree of ${record.branch} at ${record.path}`);
  await prepareCheckout(record, opts.setup);
  await remember(opts.registryFile, { ...(madeAt(opts.registryFile, record.path) ?? record), ...record, ready: true });
  return null;
}
