// A new worktree's setup: the repository's own `.fleetcom/worktree-setup` runs only once the
// user trusted that exact file (a changed one is untrusted again), with the FLEETCOM_*
// variables; a setup that fails stops the task from starting, with its last lines.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { git, makeRepo } from './kit.js';

describe('worktree setup', () => {
  it("runs the repository's setup only once trusted, with its variables, and a failing setup stops the task with its last lines", async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    await mkdir(join(repo, '.fleetcom'));
    await writeFile(join(repo, '.fleetcom', 'worktree-setup'), 'echo "$FLEETCOM_BRANCH $FLEETCOM_BASE $FLEETCOM_REPO_ROOT" > made-by-setup\n');
    await git(sb, repo, 'add', '.fleetcom');
    await git(sb, repo, 'commit', '-q', '-m', 'setup');
    const head = (await git(sb, repo, 'rev-parse', 'HEAD')).trim();
    const fleet = await startFleet(sb);

    const untrusted = await fleet.cli('run', '--cwd', repo, '--worktree', 'one', '--', 'sleep', '600');
    expect(untrusted.exitCode).toBe(1);
    expect(untrusted.stderr).toContain('is not trusted');
    expect(untrusted.stderr).toContain('fleetcom trust');
    expect(await fleet.ls()).toEqual([]);

    expect((await fleet.cli('trust', repo)).exitCode).toBe(0);
    const trusted = await fleet.cli('run', '--cwd', repo, '--worktree', 'one', '--', 'sleep', '600');
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    const path = (await fleet.task(trusted.stdout.trim())).cwd;
    expect(await readFile(join(path, 'made-by-setup'), 'utf8')).toBe(`one ${head} ${repo}\n`);

    // A changed script is untrusted again.
    await writeFile(join(repo, '.fleetcom', 'worktree-setup'), 'echo changed\n');
    await git(sb, repo, 'commit', '-q', '-am', 'change setup');
    const changed = await fleet.cli('run', '--cwd', repo, '--worktree', 'two', '--', 'sleep', '600');
    expect(changed.exitCode).toBe(1);
    expect(changed.stderr).toContain('is not trusted');

    await writeFile(join(sb.env.FLEETCOM_CONFIG_DIR!, 'config.json'), JSON.stringify({ worktreeSetup: 'echo step one; echo it broke >&2; exit 3' }));
    const failing = await fleet.cli('run', '--cwd', repo, '--worktree', 'three', '--', 'sleep', '600');
    expect(failing.exitCode).toBe(1);
    expect(failing.stderr).toContain('worktreeSetup failed (exit 3)');
    expect(failing.stderr).toContain('| it broke');
    expect((await fleet.ls()).length).toBe(1);
  });
});
