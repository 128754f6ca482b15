// worktrees.json is rewritten under a lock: ten `run --worktree` started at once, each adding
// its worktree to the list, leave all ten there (without the lock, a run that read the list
// before another's entry was added wrote it back without that entry). The worktrees of one
// repository are made one at a time: git's own `worktree add` run at once can read another's
// half-made entry, and two runs of one branch at once share the worktree the first made.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { makeRepo, worktreePaths } from './kit.js';

describe('ten run --worktree at once', () => {
  it('keeps every worktree in worktrees.json, and two runs of one branch share one', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const branches = Array.from({ length: 10 }, (_, i) => `par-${i}`);
    const runs = await Promise.all([...branches, 'twin', 'twin'].map((b) => fleet.cli('run', '--cwd', repo, '--worktree', b, '--', 'sleep', '600')));
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const twins = await Promise.all(runs.slice(-2).map((r) => fleet.task(r.stdout.trim())));
    expect(twins[0]!.cwd).toBe(twins[1]!.cwd);
    branches.push('twin');
    const file = join(sb.env.FLEETCOM_CONFIG_DIR!, 'worktrees.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as { worktrees: Array<{ branch: string }> };
    expect(doc.worktrees.map((w) => w.branch).sort()).toEqual([...branches].sort());
    expect((await worktreePaths(sb, repo)).length).toBe(12);
    const listed = await fleet.cli('worktrees', '--json');
    expect((JSON.parse(listed.stdout) as Array<{ tasks: number[] }>).map((w) => w.tasks.length).sort()).toEqual([...Array<number>(10).fill(1), 2]);
  });
});
