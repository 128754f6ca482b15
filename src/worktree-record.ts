// What a task keeps of its git worktree: the repository, where the worktree is, its branch and
// the base it was made from. Shared by the protocol, the task record, recipes and the worktree
// code; checked by hand (no zod) because the save and ls clients read it on their fast path.

export interface WorktreeRecord {
  /** The repository's main checkout (absolute). */
  repo: string;
  /** The linked worktree the task runs in (absolute; the task's cwd). */
  path: string;
  branch: string;
  /** The commit the branch was based on. */
  base: string;
  /** The ref name that commit came from (`main`), or null (a detached HEAD, a commit given). */
  baseRef: string | null;
}

const CONTROL = /\p{Cc}/u;
const COMMIT = /^[0-9a-f]{7,64}$/;

/** Why `value` is no worktree record, or null: it names the first wrong key. */
export function worktreeRecordProblem(value: unknown, requirePath = true): { key: string; message: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { key: '', message: 'expected an object {repo, branch, base}' };
  const v = value as Record<string, unknown>;
  for (const key of requirePath ? ['repo', 'path', 'branch'] : ['repo', 'branch']) {
    const field = v[key];
    if (typeof field !== 'string' || field.trim() === '') return { key, message: 'expected a non-empty string' };
    if (CONTROL.test(field)) return { key, message: 'must not contain control characters' };
  }
  if (typeof v.base !== 'string' || !COMMIT.test(v.base)) return { key: 'base', message: 'expected a commit id (hex)' };
  if (v.baseRef !== undefined && v.baseRef !== null && (typeof v.baseRef !== 'string' || CONTROL.test(v.baseRef))) {
    return { key: 'baseRef', message: 'expected a ref name or null' };
  }
  return null;
}

/** The record with exactly its keys (baseRef null when absent). */
export function worktreeRecord(v: Omit<WorktreeRecord, 'baseRef'> & { baseRef?: string | null }): WorktreeRecord {
  return { repo: v.repo, path: v.path, branch: v.branch, base: v.base, baseRef: v.baseRef ?? null };
}

/** A worktree's state against its base (worktrees/status.ts reads it). */
export interface WorktreeStatus {
  ahead: number;
  behind: number;
  added: number;
  deleted: number;
  /** Modified, staged or untracked (not ignored) files. */
  dirty: number;
}

/** `feat-x ↑2 ↓1 +10 −3 *`: the branch and, when known, its status (`*`: uncommitted files). */
export function statusLine(branch: string, status: WorktreeStatus | null): string {
  if (status === null) return branch;
  const parts = [branch];
  if (status.ahead > 0) parts.push(`↑${status.ahead}`);
  if (status.behind > 0) parts.push(`↓${status.behind}`);
  if (status.added > 0 || status.deleted > 0) parts.push(`+${status.added} −${status.deleted}`);
  if (status.dirty > 0) parts.push('*');
  return parts.join(' ');
}
