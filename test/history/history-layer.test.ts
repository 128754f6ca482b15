import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHeadTail, streamLines } from '../../src/harness/index.js';
import { collect, configuredHomes, planResume, HistoryCache, historyLine, homesOf, matching, parseWorktrees, resumeEnv, skippedSummary, type Found } from '../../src/history/index.js';
import { tempDir, write } from '../harness/fixtures.js';

// The history layer's pure parts: bounded reads, the cache's atomic write (what it trusts and
// drops: history-cache.test.ts), worktree parsing, homes, the plain line, the skipped summary,
// prefixes and the resumed task's environment.

const found = (id: string, over: Partial<Found> = {}): Found => ({
  agent: 'claude', id, title: 't', firstPrompt: 'p', updatedAt: 0, messages: 1, cwd: '/w', home: '/h/.claude', file: '/f', ...over,
});

describe('bounded reads', () => {
  it('reads a long file only at its ends, and a short one whole (a torn last line kept for the parser to refuse)', () => {
    const dir = tempDir();
    const long = write(path.join(dir, 'long'), `first\n${'x'.repeat(100_000)}\nlast\n`);
    expect(readHeadTail(long, 10, 10)).toEqual({ whole: false, head: ['first'], tail: ['last'] });
    expect(readHeadTail(write(path.join(dir, 'short'), 'a\nb\n{"torn'), 100, 100)).toEqual({ whole: true, head: ['a', 'b', '{"torn'], tail: [] });
    expect(readHeadTail(path.join(dir, 'none'), 1, 1)).toEqual({ kind: 'missing' });
  });

  it('reads one file after another into one buffer without mixing them', () => {
    const dir = tempDir();
    const long = write(path.join(dir, 'long'), `head one\nhead two\n${'m'.repeat(50_000)}\ntail one\ntail two\n`);
    const short = write(path.join(dir, 'short'), 'only\n');
    const wanted = { whole: false, head: ['head one', 'head two'], tail: ['tail one', 'tail two'] };
    expect(readHeadTail(long, 20, 20)).toEqual(wanted);
    expect(readHeadTail(short, 20, 20)).toEqual({ whole: true, head: ['only'], tail: [] });
    expect(readHeadTail(long, 20, 20)).toEqual(wanted);
    // Larger than the kept buffer: a buffer of its own.
    const big = write(path.join(dir, 'big'), `${'b'.repeat(3 * 1024 * 1024)}\nend\n`);
    expect(readHeadTail(big, 8, 2 * 1024 * 1024)).toEqual({ whole: false, head: [], tail: ['end'] });
    expect(readHeadTail(long, 20, 20)).toEqual(wanted);
  });

  it('streams lines and skips one longer than its bound without holding it', () => {
    const file = write(path.join(tempDir(), 'f'), `one\n${'y'.repeat(300_000)}\ntwo`);
    const lines: string[] = [];
    expect(streamLines(file, 1000, (line) => void lines.push(line))).toEqual({ kind: 'done', longLines: 1 });
    expect(lines).toEqual(['one', 'two']);
  });

  it('refuses what is not a regular file without blocking (a FIFO)', () => {
    const fifo = path.join(tempDir(), 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(readHeadTail(fifo, 10, 10)).toEqual({ kind: 'unreadable', reason: 'not a regular file' });
  });
});

describe('the cache', () => {
  it('answers for a file of the same size and mtime only, and writes itself atomically', () => {
    const dir = tempDir();
    const home = path.join(dir, 'claude');
    const transcript = write(path.join(home, 'projects', '-w', '11111111-2222-4333-8444-555555555555.jsonl'), '{"type":"user","cwd":"/w","message":{"content":"hi"}}\n');
    const file = path.join(dir, 'cache', 'history-cache.json');
    const cache = HistoryCache.load(file);
    expect(collect([{ agent: 'claude', home }], { kind: 'all' }, cache).found.map((f) => f.title)).toEqual(['hi']);
    expect(cache.save()).toBeNull();
    expect(fs.readdirSync(path.dirname(file))).toEqual(['history-cache.json']);
    fs.appendFileSync(transcript, '{"type":"custom-title","customTitle":"named"}\n');
    expect(collect([{ agent: 'claude', home }], { kind: 'all' }, HistoryCache.load(file)).found.map((f) => f.title)).toEqual(['named']);
  });
});

describe('scope, homes and output', () => {
  it('takes only absolute, clean worktree paths from git', () => {
    expect(parseWorktrees('worktree /r/main\nHEAD abc\nbranch refs/heads/main\n\nworktree /r/wt-a\nHEAD def\n\nworktree rel/x\nworktree /bad\u0007\n')).toEqual(['/r/main', '/r/wt-a']);
  });

  it('reads each agent home of the environment, of each task, and of config, without repeats', () => {
    const homes = homesOf({ HOME: '/u' }, [{ CLAUDE_CONFIG_DIR: '/u/.claude-work' }, { CLAUDE_CONFIG_DIR: '/u/.claude' }]);
    expect(homes.filter((h) => h.agent === 'claude').map((h) => h.home)).toEqual(['/u/.claude', '/u/.claude-work']);
    expect(homes.find((h) => h.agent === 'opencode')?.home).toBe('/u/.local/share/opencode/opencode.db');
    expect(configuredHomes({ codex: ['~/.codex-b', '/srv/c'] }, '/u')).toEqual([{ agent: 'codex', home: '/u/.codex-b' }, { agent: 'codex', home: '/srv/c' }]);
  });

  it('prints one line cut to the width, the id whole, control characters made harmless', () => {
    const row = { agent: 'claude' as const, id: '11111111-2222-4333-8444-555555555555', title: 'fix\u001b[31m the\nlogin bug everywhere in the app', firstPrompt: '', updatedAt: new Date(0).toISOString(), messages: null, cwd: '/w', home: '/h', heldBy: { task: 3 } };
    const line = historyLine(row, 3_600_000, 80);
    expect([...line].length).toBeLessThanOrEqual(80);
    expect(line).toMatch(/^claude {5}1h {2}\[task 3\] fix \[31m the logi… {2}11111111-2222-4333-8444-555555555555$/);
    expect(historyLine(row, 0, null)).toContain('everywhere in the app  1111');
  });

  it('sums skipped files up by reason in one line', () => {
    const skips = [{ agent: 'claude' as const, path: '/a', why: 'not a regular file' }, { agent: 'claude' as const, path: '/b', why: 'not a regular file' }, { agent: 'codex' as const, path: '/c', why: 'EACCES' }];
    expect(skippedSummary(skips, false)).toEqual(['3 store files skipped (2 not a regular file, 1 EACCES); --verbose lists them']);
    expect(skippedSummary(skips, true)).toHaveLength(3);
  });

  it('takes an exact id over prefixes, and gives the resumed task only the conversation\'s home', () => {
    const rows = [found('abc'), found('abcd'), found('abx')];
    expect(matching(rows, 'abc').map((r) => r.id)).toEqual(['abc']);
    expect(matching(rows, 'ab').map((r) => r.id)).toEqual(['abc', 'abcd', 'abx']);
    expect(resumeEnv({ PATH: '/bin', OPENCODE_DB: '/other.db' }, { agent: 'opencode', home: '/u/.local/share/opencode/opencode.db' })).toEqual({ PATH: '/bin', XDG_DATA_HOME: '/u/.local/share' });
  });

  it('plans a resume: the holding task, the holding pid, a directory gone, else the agent\'s resume form there', () => {
    const dir = tempDir();
    const row = found('019f5453-de22-7240-b2e5-0d32692aa6d9', { agent: 'codex', cwd: dir, home: '/u/.codex-b' });
    expect(planResume(row, { task: 4 }, {})).toEqual({ kind: 'held-by-task', task: 4 });
    expect(planResume(row, { pid: 99 }, {})).toEqual({ kind: 'held-by-pid', pid: 99 });
    expect(planResume({ ...row, cwd: path.join(dir, 'removed-worktree') }, null, {})).toEqual({ kind: 'gone', cwd: path.join(dir, 'removed-worktree') });
    expect(planResume(row, null, { PATH: '/bin', CODEX_HOME: '/u/.codex' })).toEqual({
      kind: 'start', command: "codex resume '019f5453-de22-7240-b2e5-0d32692aa6d9'", cwd: dir, env: { PATH: '/bin', CODEX_HOME: '/u/.codex-b' },
    });
  });
});

