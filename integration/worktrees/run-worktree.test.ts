// `fleetcom run --worktree BRANCH`: a linked worktree made beside the repository (or shared
// with the branch's other task), its record in `ls --json`, the files a checkout lacks, the
// setup a repository asks for only once trusted — and every bad input refused with exit 2
// before anything is made.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { git, makeRepo, namesIn, worktreePaths } from './kit.js';

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

  it('refuses hostile branch names, an occupied path, no repository and a bad base with exit 2, making nothing', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const place = join(sb.dir, 'home', 'src', 'api.worktrees');
    const branchesBefore = await git(sb, repo, 'branch', '--list');
    for (const name of ['../x', '-rf', 'a..b', 'with space', '~x', 'x~1', '@{-1}', '']) {
      const r = await fleet.cli('run', '--cwd', repo, '--worktree', name, '--', 'sleep', '600');
      expect(r.exitCode, `${name}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain('--worktree');
    }
    await mkdir(join(place, 'taken'), { recursive: true });
    await writeFile(join(place, 'taken', 'keep.txt'), 'mine\n');
    const occupied = await fleet.cli('run', '--cwd', repo, '--worktree', 'taken', '--', 'sleep', '600');
    expect(occupied.exitCode).toBe(2);
    expect(occupied.stderr).toContain(`${join(place, 'taken')} already exists`);
    expect(await readFile(join(place, 'taken', 'keep.txt'), 'utf8')).toBe('mine\n');

    const outside = await fleet.cli('run', '--cwd', await sb.mkdir('plain'), '--worktree', 'x', '--', 'sleep', '600');
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain('not inside a git repository');
    const badBase = await fleet.cli('run', '--cwd', repo, '--worktree', 'x', '--base', 'nope', '--', 'sleep', '600');
    expect(badBase.exitCode).toBe(2);
    expect(badBase.stderr).toContain('--base "nope": names no commit');

    await mkdir(join(sb.env.FLEETCOM_CONFIG_DIR!), { recursive: true });
    await writeFile(join(sb.env.FLEETCOM_CONFIG_DIR!, 'config.json'), JSON.stringify({ worktreeDir: '{repo-root}/../wt/{branch}/../../..' }));
    const escape = await fleet.cli('run', '--cwd', repo, '--worktree', 'x', '--', 'sleep', '600');
    expect(escape.exitCode).toBe(2);
    expect(escape.stderr).toContain('outside');

    expect(await namesIn(place)).toEqual(['taken']);
    expect(await worktreePaths(sb, repo)).toEqual([repo]);
    expect(await git(sb, repo, 'branch', '--list')).toBe(branchesBefore);
    expect(await fleet.ls()).toEqual([]);
  });
});
