import { describe, expect, it } from 'vitest';
import { FleetError } from '../../src/errors.js';
import { branchSegment, worktreePath } from '../../src/worktrees/names.js';
import { DEFAULT_WORKTREE_DIR } from '../../src/config/values.js';

describe('worktreePath', () => {
  it.each([
    [DEFAULT_WORKTREE_DIR, 'feat/x', '/src/api.worktrees/feat-x'],
    ['{repo-root}/.worktrees/{branch}', 'fix', '/src/api/.worktrees/fix'],
    ['../wt-{branch}', 'fix', '/src/wt-fix'],
    ['/var/wt/{repo}/{branch}', 'a/b/c', '/var/wt/api/a-b-c'],
  ])('puts %s with branch %s at %s', (template, branch, path) => {
    expect(worktreePath(template, '/src/api', branch)).toBe(path);
  });

  it.each([
    ['a template without {branch}', '{repo-root}/../wt', 'must contain {branch}'],
    ['a path climbing out after {branch}', '{repo-root}/../wt/{branch}/../../..', 'outside'],
    ['the repository itself', '{repo-root}/{branch}/..', 'outside'],
    ['a path over the repository', '/{branch}/../src/api', 'over the repository'],
    ['the repository as the place', '/src/{branch}', 'over the repository'],
  ])('refuses %s (exit 2)', (_what, template, message) => {
    const branch = template === '/src/{branch}' ? 'api' : 'x';
    let error: unknown;
    try {
      worktreePath(template, '/src/api', branch);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FleetError);
    expect((error as FleetError).exitCode).toBe(2);
    expect((error as Error).message).toContain(message);
  });

  it('makes a branch one path segment', () => {
    expect(branchSegment('team/feat/x')).toBe('team-feat-x');
  });
});
