// `fleetcom worktrees` lists the worktrees fleetcom made with their tasks and state; `--prune`
// removes only those unused, clean and merged; `fleetcom diff` shows a task's change against
// its base, untracked files included, leaving the worktree's index as it was.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { commitFile, git, makeRepo, runInWorktree } from './kit.js';

describe('fleetcom worktrees and diff', () => {
  it('lists, diffs, and prunes only what is unused, clean and merged', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const run = (branch: string, ...cmd: string[]) => runInWorktree(fleet, repo, branch, ...cmd);
    const used = await run('used');
    const merged = await run('merged');
    const dirty = await run('dirty');
    await commitFile(sb, merged.cwd, 'm.txt', 'merged work\n');
    await git(sb, repo, 'merge', '-q', '--ff-only', 'merged');
    await commitFile(sb, used.cwd, 'committed.txt', 'one\ntwo\n');
    await writeFile(join(used.cwd, 'untracked.txt'), 'new\n');
    await writeFile(join(dirty.cwd, 'scratch.txt'), 'wip\n');
    for (const task of [merged, dirty]) expect((await fleet.cli('rm', String(task.id))).exitCode).toBe(0);

    const stat = await fleet.cli('diff', String(used.id), '--stat');
    expect(stat.exitCode, stat.stderr).toBe(0);
    expect(stat.stdout).toMatch(/committed\.txt \| 2 \+\+/);
    expect(stat.stdout).toMatch(/untracked\.txt \| 1 \+/);
    expect(await git(sb, used.cwd, 'status', '--porcelain')).toBe('?? untracked.txt\n');
    const plainTask = await fleet.cli('run', '--', 'sleep', '600');
    expect((await fleet.cli('diff', plainTask.stdout.trim())).exitCode).toBe(1);

    const listed = await fleet.cli('worktrees', '--json');
    expect(listed.exitCode, listed.stderr).toBe(0);
    const doc = JSON.parse(listed.stdout) as Array<{ branch: string; tasks: number[]; present: boolean; status: { ahead: number; dirty: number } | null }>;
    expect(doc.map((w) => [w.branch, w.tasks, w.present, w.status?.ahead, w.status?.dirty])).toEqual([
      ['used', [used.id], true, 1, 1],
      ['merged', [], true, 0, 0],
      ['dirty', [], true, 0, 1],
    ]);

    const pruned = await fleet.cli('worktrees', '--prune');
    expect(pruned.exitCode).toBe(1); // some were kept
    expect(pruned.stderr).toContain(`removed the worktree ${merged.cwd}`);
    expect(pruned.stderr).toContain(`kept ${used.cwd}: task ${used.id} use it`);
    expect(pruned.stderr).toContain(`kept ${dirty.cwd}: 1 uncommitted file(s)`);
    expect(existsSync(merged.cwd)).toBe(false);
    expect(existsSync(dirty.cwd) && existsSync(used.cwd)).toBe(true);
    expect((await git(sb, repo, 'branch', '--list', 'merged')).trim()).toBe('merged'); // the branch stays
  });
});
