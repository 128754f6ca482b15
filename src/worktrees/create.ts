// `run --worktree <branch>`: the linked worktree a task runs in, made (or shared) before the
// task starts. Every check comes before anything is made: a bad name, no repository, a
// template that escapes its place, a path holding something else, a branch checked out where
// fleetcom did not put it — exit 2, nothing created.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { FleetError, UsageError } from '../errors.js';
import { makePrivateDirs } from '../fs-safety.js';
import { withFileLock } from '../ownership/file-lock.js';
import { fnv1a64 } from '../paths.js';
import type { WorktreeRecord } from '../worktree-record.js';
import { git } from './git.js';
import { checkBranchName, worktreePath } from './names.js';
import { madeAt, remember } from './registry.js';
import { branchExists, commitOf, commonDirNear, commonDirOf, realPath, repoWorktrees, type ListedWorktree } from './repo.js';
import { prepareCheckout, setupSteps, type SetupOptions } from './setup.js';

export interface WorktreeRequest {
  branch: string;
  /** --base: a ref or commit; default the repository's HEAD. */
  base: string | null;
  /** A directory inside the repository. */
  cwd: string;
  /** config worktreeDir. */
  template: string;
  registryFile: string;
  setup: SetupOptions;
}

/** git's longest wait here: checking out a large tree. */
const ADD_DEADLINE_MS = 300_000;

export function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** The base commit: --base's, else the main checkout's HEAD as git listed it (its branch the ref). */
async function baseOf(repo: string, main: ListedWorktree, base: string | null): Promise<{ base: string; baseRef: string | null }> {
  if (base === null) {
    const head = main.head !== null && /^[0-9a-f]{40,64}$/.test(main.head) && !/^0+$/.test(main.head) ? main.head : null;
    if (head === null) throw new UsageError(`--worktree: the repository ${repo} has no commit yet to base a branch on`);
    return { base: head, baseRef: main.branch };
  }
  const commit = base.startsWith('-') ? null : await commitOf(repo, base);
  if (commit === null) throw new UsageError(`--base ${JSON.stringify(base)}: names no commit in ${repo}`);
  return { base: commit, baseRef: commit.startsWith(base) ? null : base };
}

function samePath(a: string, b: string): boolean {
  return realPath(a) === realPath(b);
}

/**
 * The lock of one repository's worktrees (in fleetcom's config dir, never in the repository):
 * git's own `worktree add` run twice at once in one repository can read the other's half-made
 * entry (measured on 2.39.5: "failed to read .git/worktrees/<name>/commondir" in one of ten
 * runs at once under load), and two runs of one branch must share what the first made.
 */
export function repoLockFile(registryFile: string, commonDir: string): string {
  return path.join(path.dirname(registryFile), 'locks', `worktrees-${fnv1a64(commonDir)}`);
}

/** Runs `section` holding the lock of the repository `dir` is in (waiting up to git's longest add). */
export async function underRepoLock<T>(registryFile: string, dir: string, section: () => Promise<T>): Promise<T> {
  // Its common git dir names the repository from any of its checkouts: read from the file
  // system (a git process fewer on every run --worktree), else asked of git.
  const common = (process.env.GIT_DIR === undefined ? commonDirNear(dir) : null) ?? (await commonDirOf(dir));
  const lock = repoLockFile(registryFile, common ?? path.resolve(dir));
  makePrivateDirs(path.dirname(lock));
  return withFileLock(lock, section, { waitMs: ADD_DEADLINE_MS + 60_000 });
}

/** The worktree for the request: made, or the one fleetcom made for that branch before (shared). */
export async function provideWorktree(request: WorktreeRequest): Promise<{ record: WorktreeRecord; shared: boolean }> {
  await checkBranchName(request.branch);
  const made = await underRepoLock(request.registryFile, request.cwd, () => makeOrShare(request));
  // The setup (a package install) runs outside the lock: other branches' worktrees need not wait for it.
  if (made.setUp) await setUp(made.record, request);
  return { record: made.record, shared: made.shared };
}

async function makeOrShare(request: WorktreeRequest): Promise<{ record: WorktreeRecord; shared: boolean; setUp: boolean }> {
  const { branch, registryFile } = request;
  const { repo, main, listed } = await repoWorktrees(request.cwd);
  const { base, baseRef } = await baseOf(repo, main, request.base);
  const onBranch = listed.filter((w) => w.branch === branch);
  const live = onBranch.find((w) => w.prunable === null);
  if (live !== undefined) {
    const made = madeAt(registryFile, realPath(live.path)) ?? madeAt(registryFile, live.path);
    if (made === null || live.main) {
      throw new UsageError(`--worktree ${branch}: the branch is checked out at ${live.path}, a worktree fleetcom did not make; use another branch, or run there with --cwd ${live.path}`);
    }
    return { record: recordOf(made), shared: true, setUp: !made.ready };
  }
  const target = worktreePath(request.template, repo, branch);
  const registered = listed.find((w) => samePath(w.path, target) || w.path === target);
  if (exists(target)) {
    throw new UsageError(`--worktree ${branch}: ${target} already exists and is not a worktree of branch ${branch}; it is left as it is (move it, or set worktreeDir)`);
  }
  if (registered !== undefined && registered.branch !== branch) {
    throw new UsageError(`--worktree ${branch}: git has ${target} registered for ${registered.branch ?? 'a detached HEAD'} (git worktree prune clears it once you are sure)`);
  }
  const record: WorktreeRecord = { repo, path: target, branch, base, baseRef };
  await addWorktree(record, registered, await branchExists(repo, branch));
  // Recorded at once (a setup that fails or is cut short leaves it made but not ready: the next run sets it up).
  const steps = setupSteps(record, request.setup);
  await remember(registryFile, { ...record, ready: !steps });
  return { record, shared: false, setUp: steps };
}

function recordOf(made: WorktreeRecord): WorktreeRecord {
  return { repo: made.repo, path: made.path, branch: made.branch, base: made.base, baseRef: made.baseRef };
}

async function setUp(record: WorktreeRecord, request: Pick<WorktreeRequest, 'registryFile' | 'setup'>): Promise<void> {
  await prepareCheckout(record, request.setup);
  await remember(request.registryFile, { ...record, ready: true });
}

/**
 * `git worktree add` of the record's path; `registered`: git's entry for that path whose
 * directory is gone (a worktree removed by hand), which only --force lets git make again — the
 * caller has checked that it is that same branch's.
 */
export async function addWorktree(record: WorktreeRecord, registered: ListedWorktree | undefined, branchThere: boolean): Promise<void> {
  const force = registered !== undefined && registered.prunable !== null && registered.branch === record.branch ? ['--force'] : [];
  const args = branchThere
    ? ['-C', record.repo, 'worktree', 'add', ...force, record.path, record.branch]
    : ['-C', record.repo, 'worktree', 'add', '--no-track', '-b', record.branch, record.path, record.base];
  await git(args, { deadlineMs: ADD_DEADLINE_MS });
  if (!exists(record.path)) throw new FleetError(`git worktree add said it made ${record.path}, but it is not there`);
}
