import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commonDirNear } from '../../src/worktrees/repo.js';
import { tempDir } from '../harness/fixtures.js';

// The key of a repository's worktree lock, read from the file system as git lays it out.
describe('commonDirNear', () => {
  it("finds a main checkout's .git from any directory in it, and a linked worktree's common dir through its commondir", () => {
    const root = realpathSync(tempDir());
    const repo = join(root, 'api');
    mkdirSync(join(repo, '.git', 'worktrees', 'feat-x'), { recursive: true });
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    writeFileSync(join(repo, '.git', 'worktrees', 'feat-x', 'commondir'), '../..\n');
    const linked = join(root, 'api.worktrees', 'feat-x');
    mkdirSync(join(linked, 'lib'), { recursive: true });
    writeFileSync(join(linked, '.git'), `gitdir: ${join(repo, '.git', 'worktrees', 'feat-x')}\n`);
    expect(commonDirNear(join(repo, 'src', 'deep'))).toBe(join(repo, '.git'));
    expect(commonDirNear(join(linked, 'lib'))).toBe(join(repo, '.git'));
    expect(commonDirNear(join(root, 'elsewhere'))).toBeNull();
  });

  it('cannot tell from a .git file of another shape', () => {
    const root = realpathSync(tempDir());
    writeFileSync(join(root, '.git'), 'not a gitdir line\n');
    expect(commonDirNear(root)).toBeNull();
  });
});
