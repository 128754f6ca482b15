// `run --worktree` refuses bad input with exit 2 before anything is made: hostile branch names,
// an occupied path (never taken over, never deleted), no repository, a bad base, a template
// that escapes its place.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { git, makeRepo, namesIn, worktreePaths } from './kit.js';

describe('run --worktree with bad input', () => {
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
