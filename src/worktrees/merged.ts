// Whether a branch's work is already in the branch it was based on — the one condition under
// which `--delete-branch` and `worktrees --prune` let it go. Three ways count: its tip is
// reachable from the target; every commit of it has a patch-equivalent one there (`git
// cherry`: a rebase or cherry-pick); or its whole change as one patch is there (a squash
// merge). Anything else, or a git that cannot answer, keeps the branch.
import { git, gitSays } from './git.js';
import { commitOf } from './repo.js';
import { identityEnv } from './wip.js';

export type Merged = { merged: true; how: 'reachable' | 'patch-equivalent' | 'squash-merged' } | { merged: false; why: string };

/** `git cherry` lines all `-` (each commit has an equivalent upstream). */
export function allEquivalent(cherry: string): boolean {
  const lines = cherry.split('\n').filter((l) => l.trim() !== '');
  return lines.length > 0 && lines.every((l) => l.startsWith('- '));
}

export async function branchMerged(repo: string, branch: string, target: string): Promise<Merged> {
  const tip = await commitOf(repo, `refs/heads/${branch}`);
  if (tip === null) return { merged: false, why: `branch ${branch} does not exist` };
  const into = await commitOf(repo, target);
  if (into === null) return { merged: false, why: `its base ${target} names no commit` };
  if (await gitSays(['-C', repo, 'merge-base', '--is-ancestor', tip, into])) return { merged: true, how: 'reachable' };
  if (allEquivalent(await git(['-C', repo, 'cherry', into, tip]))) return { merged: true, how: 'patch-equivalent' };
  const fork = (await git(['-C', repo, 'merge-base', into, tip])).trim();
  const squash = (await git(['-C', repo, '-c', 'commit.gpgSign=false', 'commit-tree', `${tip}^{tree}`, '-p', fork, '-m', `squash of ${branch}`], { env: await identityEnv(repo) })).trim();
  // Made in the same second with the same identity and message as the user's own squash
  // commit, it is that very commit, already in the target: `git cherry` then lists nothing.
  if (await gitSays(['-C', repo, 'merge-base', '--is-ancestor', squash, into])) return { merged: true, how: 'squash-merged' };
  if (allEquivalent(await git(['-C', repo, 'cherry', into, squash]))) return { merged: true, how: 'squash-merged' };
  return { merged: false, why: `its commits are not in ${target}` };
}
