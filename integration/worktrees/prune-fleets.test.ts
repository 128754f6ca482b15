// `worktrees --prune` knows the tasks of every fleet of the user, not only its own: two fleets
// (two runtime dirs, one config dir) each running a task in a worktree, a prune from either —
// or from where no fleet runs — keeps both; when one fleet's state cannot be read it prunes
// nothing (fail closed), naming that fleet. A finish keeps a worktree another fleet's task runs in.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { makeRepo, runInWorktree } from './kit.js';

describe('worktrees --prune with two fleets running', () => {
  it("keeps the worktrees of the other fleet's tasks, and prunes nothing when a fleet cannot be read", async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const a = await startFleet(sb);
    const bDir = join(sb.dir, 'fleet-b-run');
    const b = await startFleet(sb, { name: 'fleetb', env: { FLEETCOM_RUNTIME_DIR: bDir } });
    const usedByA = await runInWorktree(a, repo, 'used-by-a');
    const usedByB = await runInWorktree(b, repo, 'used-by-b');
    const spare = await runInWorktree(a, repo, 'spare');
    expect((await a.cli('rm', String(spare.id))).exitCode).toBe(0);
    // None has a commit of its own: each is merged, so only its task keeps it.

    const pruned = await a.cli('worktrees', '--prune');
    expect(pruned.exitCode).toBe(1);
    expect(pruned.stderr).toContain(`removed the worktree ${spare.cwd}`);
    expect(pruned.stderr).toContain(`kept ${usedByA.cwd}: task ${usedByA.id} use it`);
    expect(pruned.stderr).toContain(`kept ${usedByB.cwd}: task ${usedByB.id} of the fleet at ${bDir} use it`);
    expect(existsSync(usedByB.cwd)).toBe(true);

    // From where no fleet runs, both fleets' tasks are known.
    const nowhere = await a.cliIn(sb.dir, { ...sb.env, FLEETCOM_RUNTIME_DIR: join(sb.dir, 'no-fleet-here') }, 'worktrees', '--prune');
    expect(nowhere.stderr).toContain(`kept ${usedByA.cwd}: task ${usedByA.id} of the fleet at ${sb.env.FLEETCOM_RUNTIME_DIR} use it`);
    expect(nowhere.stderr).toContain(`kept ${usedByB.cwd}: task ${usedByB.id} of the fleet at ${bDir} use it`);
    const listed = JSON.parse((await a.cli('worktrees', '--json')).stdout) as Array<{ branch: string; tasks: number[]; otherTasks: Array<{ runtimeDir: string; id: number; running: boolean }> }>;
    expect(listed.find((w) => w.branch === 'used-by-b')?.otherTasks).toEqual([{ runtimeDir: bDir, id: usedByB.id, running: true }]);

    // Fleet b's state unreadable: nothing is pruned, b named.
    const another = await runInWorktree(a, repo, 'another');
    expect((await a.cli('rm', String(another.id))).exitCode).toBe(0);
    const stateFile = join(bDir, 'state.json');
    const state = await readFile(stateFile, 'utf8');
    await writeFile(stateFile, '{"version": 1, "tasks": [');
    const closed = await a.cli('worktrees', '--prune');
    expect(closed.exitCode).toBe(1);
    expect(closed.stderr).toContain(`the tasks of the fleet at ${bDir} cannot be read: ${stateFile}: not valid JSON`);
    expect(closed.stderr).toContain('nothing pruned');
    expect(existsSync(another.cwd)).toBe(true);
    await writeFile(stateFile, state);
    const open = await a.cli('worktrees', '--prune');
    expect(open.stderr).toContain(`removed the worktree ${another.cwd}`);

    // finish in fleet a of a task whose worktree a task of fleet b also runs in: the task goes, the worktree and its branch stay.
    const guest = await b.cli('run', '--cwd', usedByA.cwd, '--', 'sleep', '600');
    expect(guest.exitCode, guest.stderr).toBe(0);
    const finished = await a.cli('finish', String(usedByA.id));
    expect(finished.exitCode, finished.stderr).toBe(0);
    expect(finished.stderr).toContain(`the worktree ${usedByA.cwd} stays: also used by task ${guest.stdout.trim()} of the fleet at ${bDir}`);
    expect(finished.stderr).toContain('branch used-by-a stays');
    expect((await a.ls()).map((t) => t.id)).not.toContain(usedByA.id);
    expect(existsSync(usedByA.cwd)).toBe(true);
  });
});
