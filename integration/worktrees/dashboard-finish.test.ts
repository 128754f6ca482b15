// `f` in the dashboard on a worktree task: its diff stat and finish plan, and on `y` the finish
// itself — the branch merged into its base, the task removed, its worktree and branch gone,
// its conversation still listed by `fleetcom history`.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { screen, waitForScreen } from '../helpers/dashboard-screen.js';
import { startFleet } from '../helpers/fleet.js';
import { pressKeys } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { talk } from '../sessions/kit.js';
import { commitFile, git, makeRepo, runInWorktree, worktreePaths } from './kit.js';

describe('the dashboard finish key', () => {
  it('shows the diff stat and the plan, and finishes on y', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb, { headless: false });
    const dash = fleet.supervisorPane;
    const task = await runInWorktree(fleet, repo, 'feat-dash', 'claude');
    await talk(sb, task, 'claude', 'zebra stripes question');
    const id = (await fleet.waitTask(task.id, (t) => t.conversationId !== null, 'claude id')).conversationId!;
    await commitFile(sb, task.cwd, 'feature.txt', 'the feature\n');

    await waitForScreen(sb, dash, /› .*claude/, 'the worktree task selected');
    await pressKeys(sb, dash, 'f');
    const plan = await waitForScreen(sb, dash, /Finish task \d+ as planned above\? \(y\/n\)/, 'the finish plan');
    expect(plan).toMatch(/feature\.txt \| 1 \+/);
    expect(plan).toContain(`task ${task.id}: finish branch feat-dash into main (the branch it was based on) by merge`);
    expect(plan).toContain(`its conversation, claude ${id}`);
    // Any other key goes back, nothing done.
    await pressKeys(sb, dash, 'n');
    await waitForScreen(sb, dash, /not finished/, 'the refusal to go on');
    expect(existsSync(task.cwd)).toBe(true);

    await pressKeys(sb, dash, 'f');
    await waitForScreen(sb, dash, /as planned above\? \(y\/n\)/, 'the finish plan again');
    await pressKeys(sb, dash, 'y');
    await waitForScreen(sb, dash, new RegExp(`task ${task.id} finished: feat-dash in main`), 'the finish done');
    expect(await git(sb, repo, 'show', 'main:feature.txt')).toBe('the feature\n');
    await waitFor(async () => (await fleet.ls()).length === 0, { what: 'the task to be removed' });
    expect(await worktreePaths(sb, repo)).toEqual([repo]);
    expect((await git(sb, repo, 'branch', '--list', 'feat-dash')).trim()).toBe('');
    const history = await fleet.cli('history', '--all');
    expect(history.stdout).toContain(id);
    expect(await screen(sb, dash)).not.toContain('error:');
  });
});
