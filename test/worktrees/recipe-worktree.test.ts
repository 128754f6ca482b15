// A worktree entry in a recipe: written under the worktree's path with its repository
// home-relative, read back with the repository expanded and the path from its directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecipe, serializeRecipe, sessionOf } from '../../src/sessions/index.js';

const base = 'a'.repeat(40);

describe('a worktree entry', () => {
  it('round-trips with the repository written ~/…, and loads even when its directory is gone', () => {
    const home = mkdtempSync(join(tmpdir(), 'wt-recipe-'));
    const dirs = new Map([[`${home}/src/api.worktrees/feat`, [{ cmd: "claude --resume 'x'", group: null, name: null, worktree: { repo: `${home}/src/api`, branch: 'feat', base, baseRef: 'main' } }]]]);
    const text = serializeRecipe({ name: 'w', dirs }, home);
    expect(JSON.parse(text).dirs).toEqual({
      '~/src/api.worktrees/feat': [{ cmd: "claude --resume 'x'", group: null, name: null, worktree: { repo: '~/src/api', branch: 'feat', base, baseRef: 'main' } }],
    });
    const read = sessionOf(parseRecipe(text, 'w.json'), 'w.json', { home, cwd: '/' });
    expect(read.skipped).toEqual([]);
    expect(read.tasks).toEqual([{
      cwd: `${home}/src/api.worktrees/feat`, cmd: "claude --resume 'x'", name: null, group: null,
      worktree: { repo: `${home}/src/api`, path: `${home}/src/api.worktrees/feat`, branch: 'feat', base, baseRef: 'main' },
    }]);
  });

  it("keeps a host's worktree entry as the host wrote it", () => {
    const entry = { cmd: 'claude', group: null, name: null, worktree: { repo: '~/src/api', branch: 'feat', base, baseRef: null } };
    const hosts = new Map([['gpu', new Map([['~/src/api.worktrees/feat', [entry]]])]]);
    const text = serializeRecipe({ name: 'w', dirs: new Map(), hosts }, '/home/me');
    expect(JSON.parse(text).hosts.gpu['~/src/api.worktrees/feat']).toEqual([entry]);
    expect(parseRecipe(text, 'w.json').hosts?.get('gpu')?.get('~/src/api.worktrees/feat')).toEqual([entry]);
  });

  it('refuses a malformed worktree, naming where', () => {
    const text = JSON.stringify({ version: 1, name: 'w', dirs: { '/w': [{ cmd: 'claude', group: null, name: null, worktree: { repo: '/r', branch: 'b', base: 'HEAD' } }] } });
    expect(() => parseRecipe(text, 'w.json')).toThrow(/dirs\["\/w"\]\[0\]\.worktree\.base: expected a commit id/);
  });
});

describe("a recipe's worktree before it is made again", () => {
  it('is refused when its branch would read as an option to git', async () => {
    const { worktreeCondition } = await import('../../src/worktrees/recreate.js');
    const condition = await worktreeCondition({ repo: '/r', path: '/r.worktrees/x', branch: '-rf', base, baseRef: null });
    expect(condition).toEqual({ state: 'refused', why: expect.stringContaining("must not be empty or begin with '-'") });
  });
});
