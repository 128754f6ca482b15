// Removal never loses work: `rm` keeps the worktree; `rm --worktree` refuses a dirty or shared
// one as a whole (exit 1, nothing changed); `--force` saves the uncommitted state under
// refs/fleetcom/wip/ first, and the printed command restores the exact files.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { commitFile, git, makeRepo, runInWorktree, worktreePaths } from './kit.js';

const sh = promisify(execFile);

describe('rm --worktree', () => {
  it('keeps a shared or dirty worktree, saves a forced one under a WIP ref that restores it exactly, and keeps its unmerged branch', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const run = (branch: string, ...cmd: string[]) => runInWorktree(fleet, repo, branch, ...cmd);
    const a = await run('wip');
    const b = await run('wip', 'sleep', '601');
    const path = a.cwd;

    // Shared: refused as a whole while the other task runs there.
    const shared = await fleet.cli('rm', String(a.id), '--worktree');
    expect(shared.exitCode).toBe(1);
    expect(shared.stderr).toContain(`task(s) ${b.id} also run in ${path}`);
    expect((await fleet.ls()).length).toBe(2);
    // Plain rm: the task goes, the worktree stays (said once).
    const plain = await fleet.cli('rm', String(b.id));
    expect(plain.exitCode).toBe(0);
    expect(plain.stderr).toContain(`the worktree ${path} (branch wip) stays`);

    // Dirty: a staged change, a modified file and an untracked one.
    await commitFile(sb, path, 'tracked.txt', 'one\n');
    await writeFile(join(path, 'tracked.txt'), 'staged\n');
    await git(sb, path, 'add', 'tracked.txt');
    await writeFile(join(path, 'tracked.txt'), 'modified after staging\n');
    await writeFile(join(path, 'untracked.txt'), 'new file\n');
    const dirty = await fleet.cli('rm', String(a.id), '--worktree');
    expect(dirty.exitCode).toBe(1);
    expect(dirty.stderr).toContain('2 uncommitted file(s)');
    expect(dirty.stderr).toContain('untracked.txt');
    expect(existsSync(path)).toBe(true);
    expect((await fleet.ls()).map((t) => t.id)).toEqual([a.id]);

    const forced = await fleet.cli('rm', String(a.id), '--worktree', '--force', '--delete-branch');
    expect(forced.exitCode, forced.stderr).toBe(0);
    const ref = /as (refs\/fleetcom\/wip\/wip\/\d{8}T\d{6}Z)/.exec(forced.stderr)?.[1];
    expect(ref, forced.stderr).toBeDefined();
    expect(forced.stderr).toContain('branch wip kept: not merged');
    expect(existsSync(path)).toBe(false);
    expect(await worktreePaths(sb, repo)).toEqual([repo]);
    expect(await fleet.ls()).toEqual([]);
    const restore = /restore with: (.*)/.exec(forced.stderr)?.[1];
    await sh('/bin/sh', ['-c', restore!], { env: sb.env });
    expect(await readFile(join(path, 'tracked.txt'), 'utf8')).toBe('modified after staging\n');
    expect(await readFile(join(path, 'untracked.txt'), 'utf8')).toBe('new file\n');
    expect(await git(sb, path, 'show', ':tracked.txt')).toBe('staged\n');
    expect(await git(sb, path, 'status', '--porcelain')).toBe('MM tracked.txt\n?? untracked.txt\n');
    await git(sb, repo, 'worktree', 'remove', '--force', path);
    expect((await git(sb, repo, 'branch', '--list', 'wip')).trim()).toBe('wip');

  });
});
