// `fleetcom run --worktree BRANCH`: a linked worktree made beside the repository (or shared
// with the branch's other task), its record in `ls --json`, the files a checkout lacks, the
// setup a repository asks for only once trusted (setup.test.ts); bad input: bad-input.test.ts.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { git, makeRepo, worktreePaths } from './kit.js';

describe('run --worktree', () => {
  it('makes the worktree beside the repository, shares it with a second task, copies ignored included files and refuses a foreign checkout', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const head = (await git(sb, repo, 'rev-parse', 'HEAD')).trim();
    await writeFile(join(repo, '.worktreeinclude'), '.env\nREADME\n');
    await writeFile(join(repo, '.env'), 'SECRET=1\n');
    await writeFile(join(repo, 'debug.log'), 'not named\n');
    const fleet = await startFleet(sb);

    const made = await fleet.cliIn(repo, sb.env, 'run', '--worktree', 'feat/x', '--', 'sleep', '600');
    expect(made.exitCode, made.stderr).toBe(0);
    const path = join(sb.dir, 'home', 'src', 'api.worktrees', 'feat-x');
    expect(made.stderr).toContain(`made the worktree of feat/x at ${path} (from main)`);
    const task = await fleet.task(made.stdout.trim());
    expect(task.cwd).toBe(path);
    expect(task.worktree).toMatchObject({ repo, path, branch: 'feat/x', base: head, baseRef: 'main' });
    expect(await worktreePaths(sb, repo)).toEqual([repo, path]);
    // .env is ignored and named: copied; README is named but tracked (it came with the checkout); debug.log is not named.
    expect(await readFile(join(path, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(existsSync(join(path, 'debug.log'))).toBe(false);

    const second = await fleet.cli('run', '--cwd', repo, '--worktree', 'feat/x', '--', 'sleep', '601');
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stderr).toContain(`sharing the worktree of feat/x at ${path}`);
    expect((await fleet.task(second.stdout.trim())).worktree).toMatchObject({ path, branch: 'feat/x' });

    // The dirty mark and the branch come to ls from the background read.
    await writeFile(join(path, 'new.txt'), 'x\n');
    await fleet.waitTask(task.id, (t) => t.worktree?.status?.dirty === 1, 'a dirty status', 30_000);
    expect((await fleet.cli('ls')).stdout).toMatch(/BRANCH[\s\S]*feat\/x \*/);

    // A branch checked out where fleetcom did not put it is refused, naming where.
    await git(sb, repo, 'worktree', 'add', '-q', '-b', 'mine', join(sb.dir, 'mine'));
    const foreign = await fleet.cli('run', '--cwd', repo, '--worktree', 'mine', '--', 'sleep', '600');
    expect(foreign.exitCode).toBe(2);
    expect(foreign.stderr).toContain(`checked out at ${join(sb.dir, 'mine')}`);
    expect((await fleet.ls()).length).toBe(2);
  });
});
