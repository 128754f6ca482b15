// Removing a worktree never loses work. Refused unless git lists the path as a linked worktree
// of the recorded repository, no other task uses it and nothing in it is uncommitted; with
// --force the uncommitted state is first saved under refs/fleetcom/wip/. Only `git worktree
// remove` deletes it — fleetcom never deletes a worktree's files itself.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WorktreeRecord } from '../worktree-record.js';
import { git } from './git.js';
import { branchMerged } from './merged.js';
import { forget } from './registry.js';
import { listWorktrees, realPath } from './repo.js';
import { targetOf, uncommitted } from './status.js';
import { restoreCommand, saveWip } from './wip.js';

export interface RemovalCheck {
  /** Why it may not be removed at all (not a linked worktree, locked, used by other tasks); null when it may. */
  refused: string | null;
  /** Its uncommitted files (status lines); removable only with --force. */
  dirty: string[];
}

/** Reads, changes nothing. `others`: the ids of other tasks running in it. */
export async function checkRemoval(record: WorktreeRecord, others: readonly number[]): Promise<RemovalCheck> {
  const listed = await listWorktrees(record.repo);
  const at = listed.find((w) => !w.main && (w.path === record.path || realPath(w.path) === realPath(record.path)));
  if (at === undefined) return { refused: `git does not list ${record.path} as a linked worktree of ${record.repo}`, dirty: [] };
  if (at.prunable !== null) return { refused: `${record.path} is already gone (git worktree prune clears git's record of it)`, dirty: [] };
  if (at.locked) return { refused: `${record.path} is locked (git worktree unlock first)`, dirty: [] };
  if (others.length > 0) return { refused: `task(s) ${others.join(', ')} also run in ${record.path}`, dirty: [] };
  return { refused: null, dirty: await uncommitted(record.path) };
}

/** The refusal of a dirty worktree without --force, naming a few of its files. */
export function dirtyMessage(record: WorktreeRecord, dirty: readonly string[]): string {
  const names = dirty.slice(0, 5).map((line) => line.slice(3)).join(', ');
  return `${record.path} has ${dirty.length} uncommitted file(s) (${names}${dirty.length > 5 ? ', …' : ''}); commit them, or --force saves them under refs/fleetcom/wip/ before removing`;
}

/**
 * Removes a worktree checkRemoval allowed; a dirty one only with `force`, its state saved
 * first. Returns what to say (the WIP ref and how to restore it).
 */
export async function removeWorktree(record: WorktreeRecord, opts: { force: boolean; registryFile: string; now: Date }): Promise<string[]> {
  const said: string[] = [];
  const dirty = await uncommitted(record.path);
  if (dirty.length > 0) {
    if (!opts.force) throw new Error(dirtyMessage(record, dirty));
    const ref = await saveWip(record, opts.now);
    said.push(`saved ${dirty.length} uncommitted file(s) of ${record.path} as ${ref}`, `restore with: ${restoreCommand(record, ref)}`);
  }
  // git refuses a worktree holding submodules without --force; their state was checked (or saved) above.
  const force = dirty.length > 0 || existsSync(path.join(record.path, '.gitmodules')) ? ['--force'] : [];
  await git(['-C', record.repo, 'worktree', 'remove', ...force, record.path], { deadlineMs: 120_000 });
  await forget(opts.registryFile, record.path);
  said.push(`removed the worktree ${record.path}`);
  return said;
}

/**
 * Deletes the branch only when merged (merged.ts) into `target` (default: its base) and checked
 * out nowhere; else says why it is kept.
 */
export async function deleteBranchIfMerged(record: WorktreeRecord, target?: string): Promise<{ deleted: boolean; message: string }> {
  const listed = await listWorktrees(record.repo);
  const out = listed.find((w) => w.branch === record.branch && w.prunable === null);
  if (out !== undefined) return { deleted: false, message: `branch ${record.branch} kept: it is checked out at ${out.path}` };
  const into = target ?? (await targetOf(record));
  const merged = await branchMerged(record.repo, record.branch, into);
  if (!merged.merged) return { deleted: false, message: `branch ${record.branch} kept: not merged (${merged.why})` };
  const tip = (await git(['-C', record.repo, 'rev-parse', '--verify', `refs/heads/${record.branch}`])).trim();
  // The old value guards the deletion: a branch moved since the check is not deleted.
  await git(['-C', record.repo, 'update-ref', '-d', `refs/heads/${record.branch}`, tip]);
  return { deleted: true, message: `deleted branch ${record.branch} (${merged.how} into ${into.replace(/^refs\/heads\//, '')}; was ${tip.slice(0, 12)})` };
}
