// worktrees.json is rewritten under a lock: ten `run --worktree` started at once, each adding
// its worktree to the list, leave all ten there (without the lock, a run that read the list
// before another's entry was added wrote it back without that entry).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { makeRepo, worktreePaths } from './kit.js';

describe('ten run --worktree at once', () => {
  it('keeps every worktree in worktrees.json', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const branches = Array.from({ length: 10 }, (_, i) => `par-${i}`);
    const runs = await Promise.all(branches.map((b) => fleet.cli('run', '--cwd', repo, '--worktree', b, '--', 'sleep', '600')));
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const file = join(sb.env.FLEETCOM_CONFIG_DIR!, 'worktrees.json');
    const doc = JSON.parse(await readFile(file, 'utf8')) as { worktrees: Array<{ branch: string }> };
    expect(doc.worktrees.map((w) => w.branch).sort()).toEqual([...branches].sort());
    expect((await worktreePaths(sb, repo)).length).toBe(11);
    const listed = await fleet.cli('worktrees', '--json');
    expect((JSON.parse(listed.stdout) as Array<{ tasks: number[] }>).every((w) => w.tasks.length === 1)).toBe(true);
  });
});
