// git's output is input: the parsers take what porcelain formats print and refuse the rest.
import { describe, expect, it } from 'vitest';
import { gitReason, subcommandOf } from '../../src/worktrees/git.js';
import { allEquivalent } from '../../src/worktrees/merged.js';
import { parseWorktreeList } from '../../src/worktrees/repo.js';
import { parseStatusEntries, sumNumstat } from '../../src/worktrees/status.js';
import { wipTime } from '../../src/worktrees/wip.js';
import { statusLine, worktreeRecordProblem } from '../../src/worktree-record.js';

describe('git output', () => {
  it('reads git worktree list --porcelain -z: the main checkout first, branches short, prunable and locked ones marked', () => {
    const text = [
      'worktree /src/api', 'HEAD aaaa', 'branch refs/heads/main', '',
      'worktree /src/api.worktrees/feat x', 'HEAD bbbb', 'branch refs/heads/feat/x', 'locked', '',
      'worktree /gone', 'HEAD cccc', 'detached', 'prunable gitdir file points to non-existent location', '', '',
    ].join('\0');
    expect(parseWorktreeList(text)).toEqual([
      { path: '/src/api', head: 'aaaa', branch: 'main', bare: false, prunable: null, locked: false, main: true },
      { path: '/src/api.worktrees/feat x', head: 'bbbb', branch: 'feat/x', bare: false, prunable: null, locked: true, main: false },
      { path: '/gone', head: 'cccc', branch: null, bare: false, prunable: 'gitdir file points to non-existent location', locked: false, main: false },
    ]);
  });

  it('refuses a worktree list that does not start with a worktree line', () => {
    expect(() => parseWorktreeList('HEAD aaaa\0')).toThrow(/git worktree list: unexpected/);
  });

  it('counts status entries, a rename as one', () => {
    expect(parseStatusEntries('MM a\0R  new\0old\0?? u.txt\0')).toEqual(['MM a', 'R  new', '?? u.txt']);
    expect(parseStatusEntries('')).toEqual([]);
  });

  it('sums numstat lines, binary files counting none', () => {
    expect(sumNumstat('3\t1\ta\n-\t-\tbin\n10\t0\tb\nnot a line\n')).toEqual({ added: 13, deleted: 1 });
  });

  it('takes git cherry as merged only when every line is patch-equivalent', () => {
    expect(allEquivalent('- abc\n- def\n')).toBe(true);
    expect(allEquivalent('- abc\n+ def\n')).toBe(false);
    expect(allEquivalent('')).toBe(false);
  });

  it('names the subcommand and git\'s last words', () => {
    expect(subcommandOf(['-C', '/r', 'worktree', 'add', '-b', 'x', '/p'])).toBe('worktree add');
    expect(subcommandOf(['-c', 'a=b', 'status'])).toBe('status');
    expect(gitReason('hint: try\nfatal: it broke\n')).toBe('it broke');
  });

  it('writes a ref-safe UTC time', () => {
    expect(wipTime(new Date('2026-12-03T08:15:02.123Z'))).toBe('20261203T081502Z');
  });

  it('shows a status line', () => {
    expect(statusLine('feat', { ahead: 2, behind: 1, added: 10, deleted: 3, dirty: 1 })).toBe('feat ↑2 ↓1 +10 −3 *');
    expect(statusLine('feat', { ahead: 0, behind: 0, added: 0, deleted: 0, dirty: 0 })).toBe('feat');
    expect(statusLine('feat', null)).toBe('feat');
  });

  it.each([
    [{ repo: '/r', path: '/p', branch: 'b', base: 'abc1234', baseRef: 'main' }, null],
    [{ repo: '/r', path: '/p', branch: 'b', base: 'HEAD' }, 'base'],
    [{ repo: '/r', path: '/p', branch: 'b\u001b[2J', base: 'abc1234' }, 'branch'],
    [{ repo: '', path: '/p', branch: 'b', base: 'abc1234' }, 'repo'],
    ['feat', ''],
  ])('checks a worktree record read back (%j)', (value, key) => {
    expect(worktreeRecordProblem(value)?.key ?? null).toBe(key);
  });
});
