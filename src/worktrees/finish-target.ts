// Where a finished branch goes and what stands in the way there: the target branch (`--into`,
// else the branch the worktree was based on, else the repository's default branch), the
// checkout that holds it, and the state of a checkout — uncommitted changes, an operation in
// progress, untracked files a merge would overwrite. Reads only.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { WorktreeRecord } from '../worktree-record.js';
import { git, GitError, runGit } from './git.js';
import { checkBranchName } from './names.js';
import { branchExists, type ListedWorktree } from './repo.js';
import { parseStatusEntries } from './status.js';

export type IntoSource = 'flag' | 'base' | 'default';

/** The branch `origin/HEAD` names when a local branch has its name, else the main checkout's branch. */
export async function defaultBranch(repo: string, listed: readonly ListedWorktree[]): Promise<string | null> {
  const head = await runGit(['-C', repo, 'symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  const remote = head.code === 0 ? head.stdout.trim().replace(/^refs\/remotes\/origin\//, '') : '';
  if (remote !== '' && !remote.startsWith('refs/') && (await branchExists(repo, remote))) return remote;
  const main = listed.find((w) => w.main);
  return main?.branch ?? null;
}

/** The target branch and where it came from; a usage error for a bad `--into`, null when there is none. */
export async function resolveInto(record: WorktreeRecord, flag: string | null, listed: readonly ListedWorktree[]): Promise<{ into: string; source: IntoSource } | null> {
  if (flag !== null) {
    await checkBranchName(flag, '--into');
    return { into: flag, source: 'flag' };
  }
  if (record.baseRef !== null && !record.baseRef.startsWith('-') && (await branchExists(record.repo, record.baseRef))) return { into: record.baseRef, source: 'base' };
  const fallback = await defaultBranch(record.repo, listed);
  return fallback === null ? null : { into: fallback, source: 'default' };
}

/** The live checkout (main or linked) that has `branch` checked out. */
export function checkoutOf(listed: readonly ListedWorktree[], branch: string): ListedWorktree | null {
  return listed.find((w) => w.branch === branch && w.prunable === null && !w.bare) ?? null;
}

const IN_PROGRESS: ReadonlyArray<[string, string]> = [
  ['MERGE_HEAD', 'a merge'], ['rebase-merge', 'a rebase'], ['rebase-apply', 'a rebase or git am'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'], ['REVERT_HEAD', 'a revert'],
];

/** The git operation left half done in a checkout (`a merge`), or null. */
export async function operationInProgress(dir: string): Promise<string | null> {
  // One git for all the paths (a linked worktree keeps them in its own git dir).
  const paths = (await git(['-C', dir, 'rev-parse', ...IN_PROGRESS.flatMap(([name]) => ['--git-path', name])])).split('\n');
  if (paths.length < IN_PROGRESS.length) throw new GitError(`git rev-parse --git-path: unexpected ${JSON.stringify(paths.join('\n').slice(0, 60))}`);
  const found = IN_PROGRESS.find((_, i) => existsSync(path.resolve(dir, paths[i]!.trim())));
  return found === undefined ? null : found[1];
}

/** Modified or staged tracked files (status lines), untracked ones left out. */
export async function trackedChanges(dir: string): Promise<string[]> {
  return parseStatusEntries(await git(['-C', dir, 'status', '--porcelain=v1', '-z', '--untracked-files=no', '--ignore-submodules=none'], { deadlineMs: 30_000 }));
}

/** Untracked files (not ignored), repository-relative. */
export async function untrackedFiles(dir: string): Promise<string[]> {
  return (await git(['-C', dir, 'ls-files', '-z', '--others', '--exclude-standard', '--full-name', ':/'], { deadlineMs: 30_000 })).split('\0').filter((p) => p !== '');
}

/** The paths that differ between two trees. */
export async function changedPaths(repo: string, from: string, to: string): Promise<string[]> {
  return (await git(['-C', repo, 'diff-tree', '-r', '-z', '--name-only', '--no-renames', from, to])).split('\0').filter((p) => p !== '');
}

/** What keeps a checkout from taking a merge: its operation in progress or tracked changes; null when clean. */
export async function checkoutProblem(dir: string, what: string): Promise<string | null> {
  const op = await operationInProgress(dir);
  if (op !== null) return `${op} is in progress in ${what} ${dir} (finish or abort it there first)`;
  const dirty = await trackedChanges(dir);
  if (dirty.length > 0) {
    const names = dirty.slice(0, 5).map((l) => l.slice(3)).join(', ');
    return `${what} ${dir} has ${dirty.length} uncommitted change(s) (${names}${dirty.length > 5 ? ', …' : ''}); commit or stash them there first`;
  }
  return null;
}

