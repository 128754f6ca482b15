// Submodules survive a worktree: initialised in the new one, and the main checkout's
// submodule and its git data untouched when the worktree is removed.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { git, makeRepo } from './kit.js';

describe('a repository with submodules', () => {
  it('keeps submodules intact through create and remove', async () => {
    const sb = await useSandbox();
    const lib = await makeRepo(sb, 'lib');
    const repo = await makeRepo(sb);
    await git(sb, repo, 'submodule', 'add', '-q', lib, 'lib');
    await git(sb, repo, 'commit', '-q', '-m', 'add lib');
    const fleet = await startFleet(sb);
    const r = await fleet.cli('run', '--cwd', repo, '--worktree', 'sub', '--', 'sleep', '600');
    expect(r.exitCode, r.stderr).toBe(0);
    const task = await fleet.task(r.stdout.trim());
    expect(await readFile(join(task.cwd, 'lib', 'README'), 'utf8')).toBe('hello\n');
    const removed = await fleet.cli('rm', String(task.id), '--worktree');
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(existsSync(task.cwd)).toBe(false);
    // The main checkout's submodule and its git data are as they were.
    expect(await git(sb, join(repo, 'lib'), 'status', '--porcelain')).toBe('');
    expect(await git(sb, repo, 'submodule', 'status')).toMatch(/^ [0-9a-f]{40} lib/);
    expect(await git(sb, lib, 'log', '--oneline')).toContain('init');
  });
});
