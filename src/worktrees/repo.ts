// What git says about a repository: its main checkout, its worktrees and branches. Parsed
// strictly from porcelain output; a line that cannot be read fails the question.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { git, GitError, gitReason, gitSays, runGit } from './git.js';

export interface ListedWorktree {
  path: string;
  head: string | null;
  /** The branch checked out (short name), or null when detached or bare. */
  branch: string | null;
  bare: boolean;
  /** git's reason when it would prune it (its directory is gone), else null. */
  prunable: string | null;
  locked: boolean;
  /** The first is the main worktree. */
  main: boolean;
}

/** Parses `git worktree list --porcelain -z`. */
export function parseWorktreeList(text: string): ListedWorktree[] {
  const out: ListedWorktree[] = [];
  let current: ListedWorktree | null = null;
  for (const field of text.split('\0')) {
    if (field === '') {
      if (current !== null) out.push(current);
      current = null;
      continue;
    }
    const space = field.indexOf(' ');
    const [key, value] = space < 0 ? [field, ''] : [field.slice(0, space), field.slice(space + 1)];
    if (key === 'worktree') {
      if (current !== null) out.push(current);
      current = { path: value, head: null, branch: null, bare: false, prunable: null, locked: false, main: out.length === 0 };
      continue;
    }
    if (current === null) throw new GitError(`git worktree list: unexpected ${JSON.stringify(field.slice(0, 40))} before a worktree line`);
    if (key === 'HEAD') current.head = value;
    else if (key === 'branch') current.branch = value.startsWith('refs/heads/') ? value.slice('refs/heads/'.length) : value;
    else if (key === 'bare') current.bare = true;
    else if (key === 'prunable') current.prunable = value || 'gone';
    else if (key === 'locked') current.locked = true;
  }
  if (current !== null) out.push(current);
  return out;
}

export async function listWorktrees(repo: string): Promise<ListedWorktree[]> {
  return parseWorktreeList(await git(['-C', repo, 'worktree', 'list', '--porcelain', '-z']));
}

/** A path as git prints it: symlinks resolved (a temp dir under a symlink compares equal). */
export function realPath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/**
 * The main checkout of the repository holding `dir` (also from inside a linked worktree) and
 * its worktrees as git lists them, in one git call; exit 2 outside a repository.
 */
export async function repoWorktrees(dir: string): Promise<{ repo: string; main: ListedWorktree; listed: ListedWorktree[] }> {
  const result = await runGit(['-C', dir, 'worktree', 'list', '--porcelain', '-z']);
  if (result.code !== 0) throw new UsageError(`${dir} is not inside a git repository's work tree (git worktree list: ${gitReason(result.stderr)})`);
  const listed = parseWorktreeList(result.stdout);
  const [main] = listed;
  if (main === undefined || main.bare) throw new UsageError(`the repository of ${dir} is bare; fleetcom makes worktrees of a repository with a checkout`);
  return { repo: realPath(main.path), main, listed };
}

/**
 * The repository's common git dir as the file system shows it from `dir`: the nearest `.git`
 * above it — a directory, or a linked worktree's file naming its git dir, whose `commondir`
 * names the common one. Null when it cannot tell (then ask git: commonDirOf).
 */
export function commonDirNear(dir: string): string | null {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const dotGit = path.join(d, '.git');
    try {
      if (statSync(dotGit).isDirectory()) return realPath(dotGit);
      const named = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (named === undefined) return null;
      const gitDir = path.resolve(d, named);
      const common = readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
      return realPath(path.resolve(gitDir, common));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null;
    }
    if (path.dirname(d) === d) return null;
  }
}

/** The repository's common git dir (absolute), asked without listing its worktrees; null outside one. */
export async function commonDirOf(dir: string): Promise<string | null> {
  const result = await runGit(['-C', dir, 'rev-parse', '--path-format=absolute', '--git-common-dir']);
  return result.code === 0 && path.isAbsolute(result.stdout.trim()) ? realPath(result.stdout.trim()) : null;
}

export async function repoOf(dir: string): Promise<string> {
  return (await repoWorktrees(dir)).repo;
}

export async function branchExists(repo: string, branch: string): Promise<boolean> {
  return gitSays(['-C', repo, 'show-ref', '--verify', '--quiet', `refs/heads/${branch}`]);
}

/** The commit `ref` names, or null when it names none. */
export async function commitOf(repo: string, ref: string): Promise<string | null> {
  if (ref.startsWith('-')) return null;
  const result = await runGit(['-C', repo, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  const sha = result.stdout.trim();
  return result.code === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}

/** Whether a repository is (still) at `repo`: its main checkout is that directory. */
export async function isRepoRoot(repo: string): Promise<boolean> {
  const result = await runGit(['-C', repo, 'rev-parse', '--show-toplevel']);
  return result.code === 0 && realPath(result.stdout.trim()) === realPath(repo);
}
