// Before a dirty worktree is removed (`rm --worktree --force`), its state — the index, the
// modified files and the untracked ones — is saved as a commit under
// refs/fleetcom/wip/<branch>/<UTC time> in the repository. The commit is shaped like a stash
// (parents HEAD and the index's commit), so the printed command restores the exact files.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WorktreeRecord } from '../worktree-record.js';
import { git, runGit } from './git.js';

export const WIP_PREFIX = 'refs/fleetcom/wip';

/** `20261203T081502Z`: a ref-safe UTC time. */
export function wipTime(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll('-', '').replaceAll(':', '');
}

/** An author for the commits when the user's git has none (a bare CI account): git would refuse. */
export async function identityEnv(dir: string): Promise<Record<string, string>> {
  const ident = await runGit(['-C', dir, 'var', 'GIT_AUTHOR_IDENT']);
  const committer = await runGit(['-C', dir, 'var', 'GIT_COMMITTER_IDENT']);
  if (ident.code === 0 && committer.code === 0) return {};
  return { GIT_AUTHOR_NAME: 'fleetcom', GIT_AUTHOR_EMAIL: 'fleetcom@localhost', GIT_COMMITTER_NAME: 'fleetcom', GIT_COMMITTER_EMAIL: 'fleetcom@localhost' };
}

/**
 * The tree of everything in the checkout `dir` — the index, the modified files and the
 * untracked ones (ignored ones left out) — as `git add --all` would stage it, written through a
 * scratch copy of the index: the checkout's own index is never touched.
 */
export async function checkoutTree(dir: string, env: Record<string, string> = {}): Promise<string> {
  const indexFile = path.resolve(dir, (await git(['-C', dir, 'rev-parse', '--git-path', 'index'])).trim());
  const scratch = mkdtempSync(path.join(tmpdir(), 'fleetcom-wip-'));
  try {
    const scratchIndex = path.join(scratch, 'index');
    if (existsSync(indexFile)) copyFileSync(indexFile, scratchIndex);
    const scratchEnv = { ...env, GIT_INDEX_FILE: scratchIndex };
    await git(['-C', dir, 'add', '--all', '--', ':/'], { env: scratchEnv, deadlineMs: 120_000 });
    return (await git(['-C', dir, 'write-tree'], { env: scratchEnv })).trim();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Saves the worktree's state; returns the ref. Changes nothing in the worktree or its index. */
export async function saveWip(record: WorktreeRecord, now: Date): Promise<string> {
  const dir = record.path;
  const env = await identityEnv(dir);
  const head = (await git(['-C', dir, 'rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  const indexTree = (await git(['-C', dir, 'write-tree'])).trim();
  const tree = await checkoutTree(dir, env);
  const indexCommit = (await git(['-C', dir, 'commit-tree', indexTree, '-p', head, '-m', `index on ${record.branch}`], { env })).trim();
  const time = wipTime(now);
  const wip = (await git(['-C', dir, 'commit-tree', tree, '-p', head, '-p', indexCommit, '-m', `fleetcom: work in progress of ${record.branch} in ${dir}, saved ${time}`], { env })).trim();
  const ref = `${WIP_PREFIX}/${record.branch}/${time}`;
  // The empty old value: the ref must not exist yet (two saves in one second keep both apart).
  await git(['-C', record.repo, 'update-ref', ref, wip, '']);
  return ref;
}

/** The shell command that brings the saved files back into a worktree of the branch at `dir`. */
export function restoreCommand(record: WorktreeRecord, ref: string): string {
  const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  return `git -C ${q(record.repo)} worktree add ${q(record.path)} ${q(record.branch)} && git -C ${q(record.path)} stash apply --index ${q(ref)}`;
}
