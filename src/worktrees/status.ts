// A worktree's state against its base: commits ahead and behind, lines added and deleted, and
// whether anything is uncommitted. A few git processes per worktree: callers ask it off their
// hot path (the supervisor refreshes a cache in the background, worktree-status in fleet/).
import type { WorktreeRecord, WorktreeStatus } from '../worktree-record.js';

export type { WorktreeStatus } from '../worktree-record.js';
import { git } from './git.js';
import { commitOf } from './repo.js';


const STATUS_DEADLINE_MS = 10_000;

/** `git status --porcelain -z` entries (a rename's second path folded in). */
export function parseStatusEntries(text: string): string[] {
  const fields = text.split('\0');
  const out: string[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    out.push(field);
    if (field[0] === 'R' || field[0] === 'C') i += 1;
  }
  return out;
}

/** The modified, staged and untracked files of a checkout (ignored ones excluded; submodules included). */
export async function uncommitted(dir: string): Promise<string[]> {
  return parseStatusEntries(await git(['-C', dir, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=none'], { deadlineMs: STATUS_DEADLINE_MS }));
}

/** Sums `git diff --numstat` (binary files count no lines). */
export function sumNumstat(text: string): { added: number; deleted: number } {
  let added = 0;
  let deleted = 0;
  for (const line of text.split('\n')) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(line);
    if (m === null) continue;
    added += m[1] === '-' ? 0 : Number(m[1]);
    deleted += m[2] === '-' ? 0 : Number(m[2]);
  }
  return { added, deleted };
}

/** The branch the worktree's work goes into: its base ref when it still names a commit, else the base commit. */
export async function targetOf(record: Pick<WorktreeRecord, 'repo' | 'base' | 'baseRef'>): Promise<string> {
  if (record.baseRef !== null && (await commitOf(record.repo, record.baseRef)) !== null) return record.baseRef;
  return record.base;
}

export async function worktreeStatus(record: WorktreeRecord): Promise<WorktreeStatus> {
  const opts = { deadlineMs: STATUS_DEADLINE_MS };
  const target = await targetOf(record);
  const counts = (await git(['-C', record.path, 'rev-list', '--left-right', '--count', `${target}...HEAD`, '--'], opts)).trim();
  const m = /^(\d+)\s+(\d+)$/.exec(counts);
  if (m === null) throw new Error(`git rev-list: unexpected ${JSON.stringify(counts.slice(0, 40))}`);
  const lines = sumNumstat(await git(['-C', record.path, 'diff', '--numstat', record.base, '--'], opts));
  const dirty = (await uncommitted(record.path)).length;
  return { ahead: Number(m[2]), behind: Number(m[1]), ...lines, dirty };
}

