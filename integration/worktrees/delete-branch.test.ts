// `rm --worktree --delete-branch`: the branch goes only when its work is in its base branch —
// reachable (a merge) or its whole change there as one patch (a squash merge) — and is kept,
// with the output saying so, when unmerged.
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { commitFile, git, makeRepo, runInWorktree, worktreePaths } from './kit.js';

describe('rm --worktree --delete-branch', () => {
  it('deletes a merged, a cherry-picked and a squash-merged branch, keeps an unmerged one', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const run = (branch: string, ...cmd: string[]) => runInWorktree(fleet, repo, branch, ...cmd);
    // Merged by a plain merge: the branch goes. Squash-merged: it goes too. Unmerged: kept.
    const merged = await run('merged');
    await commitFile(sb, merged.cwd, 'm.txt', 'm\n');
    await git(sb, repo, 'merge', '-q', '--no-ff', '-m', 'merge', 'merged');
    const squashed = await run('squashed');
    await commitFile(sb, squashed.cwd, 's1.txt', 's1\n');
    await commitFile(sb, squashed.cwd, 's2.txt', 's2\n');
    await git(sb, repo, 'merge', '-q', '--squash', 'squashed');
    await git(sb, repo, 'commit', '-q', '-m', 'squash of squashed');
    const picked = await run('picked');
    await commitFile(sb, picked.cwd, 'p.txt', 'p\n');
    // -x: a new commit (a pick of a child of HEAD within the same second would be the very same commit).
    await git(sb, repo, 'cherry-pick', '-x', 'picked');
    const open = await run('open');
    await commitFile(sb, open.cwd, 'o.txt', 'o\n');
    for (const [task, said] of [[merged, 'deleted branch merged (reachable'], [squashed, 'deleted branch squashed (squash-merged'], [picked, 'deleted branch picked (patch-equivalent'], [open, 'branch open kept: not merged']] as const) {
      const r = await fleet.cli('rm', String(task.id), '--worktree', '--delete-branch');
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(said);
    }
    expect((await git(sb, repo, 'branch', '--format=%(refname:short)')).split('\n').filter(Boolean).sort()).toEqual(['main', 'open']);
    expect(await worktreePaths(sb, repo)).toEqual([repo]);
  });
});
