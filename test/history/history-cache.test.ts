import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, HistoryCache, parseCache, type AgentHome } from '../../src/history/index.js';
import type { HistoryEntry } from '../../src/harness/index.js';
import { tempDir, write } from '../harness/fixtures.js';

// The history cache: what it takes from its file (exactly its own shape, or nothing), that its
// rows stand only while a file's size and mtime do, and which entries a listing drops.

const A = '11111111-2222-4333-8444-555555555555';
const B = '22222222-2222-4333-8444-555555555555';
const user = (text: string) => `${JSON.stringify({ type: 'user', cwd: '/w', message: { role: 'user', content: text } })}\n`;
const doc = (agents: unknown) => JSON.stringify({ format: 'fleetcom-history-cache', version: 2, agents });

/** A claude transcript of one typed message, its mtime a whole second (utimes of a Date can move a sub-ms one). */
function transcript(home: string, id: string, text: string, second = 1_800_000_000): string {
  const file = write(path.join(home, 'projects', '-w', `${id}.jsonl`), user(text));
  fs.utimesSync(file, second, second);
  return file;
}

/** Same size, same mtime, other words: only a cache answers with the old ones. */
function rewriteInPlace(file: string, text: string): void {
  const { mtime } = fs.statSync(file);
  fs.writeFileSync(file, user(text));
  fs.utimesSync(file, mtime, mtime);
}

function titles(homes: AgentHome[], cacheFile: string, scope: Parameters<typeof collect>[1] = { kind: 'all' }): string[] {
  const cache = HistoryCache.load(cacheFile);
  const titles = collect(homes, scope, cache).found.map((f) => f.title);
  expect(cache.save()).toBeNull();
  return titles;
}

describe('the cache file', () => {
  it.each([
    ['{"torn', 'not JSON (torn or corrupt)'],
    ['[]', 'not an object'],
    ['{"format":"other","version":2,"agents":{}}', 'not a fleetcom-history-cache file'],
    ['{"format":"fleetcom-history-cache","version":1,"files":{}}', 'version 1, not 2'],
    [doc([]), 'agents: expected an object'],
    [doc({ claude: [] }), 'agents.claude: expected an object'],
    [doc({ claude: { 'rel/dir': [] } }), 'agents.claude["rel/dir"]: expected an absolute directory and an array'],
    [doc({ claude: { '/d': {} } }), 'agents.claude["/d"]: expected an absolute directory and an array'],
    [doc({ claude: { '/d': ['x/y', 1, 1, 0] } }), 'agents.claude["/d"]: value 0: expected a file name'],
    [doc({ claude: { '/d': ['f', -1, 1, 0] } }), 'agents.claude["/d"]: "f": expected its size, mtime and row count'],
    [doc({ claude: { '/d': ['f', 1, 1, 2, A, 't', 'p', 1, 1, '/w'] } }), 'agents.claude["/d"]: "f": 2 rows announced, fewer there'],
    [doc({ claude: { '/d': ['f', 1, 1, 1, 7, 't', 'p', 1, 1, '/w'] } }), 'agents.claude["/d"]: "f": row 0 is not a conversation'],
    [doc({ claude: { '/d': ['f', 1, 1, 1, A, 't', 'p', 1, 1.5, '/w'] } }), 'agents.claude["/d"]: "f": row 0 is not a conversation'],
    [doc({ claude: { '/d': ['f', 1, 1, 0, 'extra'] } }), 'agents.claude["/d"]: "extra": expected its size, mtime and row count'],
  ])('refuses %s: %s', (text, why) => {
    expect(parseCache(text)).toBe(why);
  });

  it('reads its own shape, and leaves out an agent it does not know (a newer version\'s)', () => {
    const parsed = parseCache(doc({ claude: { '/d': ['f', 10, 20, 1, A, 't', 'p', 30, null, '/w', 'g', 1, 2, 0] }, 'agent-of-2030': { '/e': [] } }));
    if (typeof parsed === 'string') throw new Error(parsed);
    expect([...parsed.keys()]).toEqual(['claude']);
    const files = parsed.get('claude')?.get('/d');
    expect(files?.get('f')).toEqual({ size: 10, mtimeMs: 20, used: false, rows: [{ id: A, title: 't', firstPrompt: 'p', updatedAt: 30, messages: null, cwd: '/w' }] });
    expect(files?.get('g')?.rows).toEqual([]);
  });

  it('writes what it reads back: several rows a file, a file at the root, text of any kind', () => {
    const file = path.join(tempDir(), 'c', 'history-cache.json');
    const rows: HistoryEntry[] = [
      { id: A, title: 'ünïcode "quoted" \\ back', firstPrompt: 'line\nbreak', updatedAt: 1_800_000_000_123, messages: 3, cwd: '/w' },
      { id: B, title: '', firstPrompt: '', updatedAt: 0, messages: null, cwd: '/' },
    ];
    const cache = HistoryCache.load(file);
    cache.set('opencode', { path: '/opencode.db', size: 5, mtimeMs: 6 }, rows);
    cache.set('claude', { path: '/h/projects/-w/a.jsonl', size: 7, mtimeMs: 8 }, rows.slice(0, 1));
    expect(cache.save()).toBeNull();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = HistoryCache.load(file);
    expect(again.discarded).toBeNull();
    expect(again.get('opencode', { path: '/opencode.db', size: 5, mtimeMs: 6 })).toEqual(rows);
    expect(again.get('claude', { path: '/h/projects/-w/a.jsonl', size: 7, mtimeMs: 8 })).toEqual(rows.slice(0, 1));
    expect(again.get('codex', { path: '/h/projects/-w/a.jsonl', size: 7, mtimeMs: 8 })).toBeNull();
  });

  it('ignores a corrupt file and one that is not a file, without failing the listing, and says why', () => {
    const dir = tempDir();
    const home = path.join(dir, 'claude');
    transcript(home, A, 'hello');
    const file = write(path.join(dir, 'cache.json'), '{"format":"fleetcom-history-cache","version":2,"agents":{"claude":{"/d":["f",1]}}}');
    const corrupt = HistoryCache.load(file);
    expect(corrupt.discarded).toBe('agents.claude["/d"]: "f": expected its size, mtime and row count');
    expect(collect([{ agent: 'claude', home }], { kind: 'all' }, corrupt).found.map((f) => f.title)).toEqual(['hello']);
    expect(corrupt.save()).toBeNull();
    expect(HistoryCache.load(file).discarded).toBeNull();
    const directory = path.join(dir, 'a-dir');
    fs.mkdirSync(directory);
    const notFile = HistoryCache.load(directory);
    expect(notFile.discarded).toBe('not a regular file');
    expect(collect([{ agent: 'claude', home }], { kind: 'all' }, notFile).found).toHaveLength(1);
    expect(notFile.save()).toMatch(/^the history cache .* could not be written \(/);
  });
});

describe('what the cache answers', () => {
  it('answers while size and mtime stand, and reads a file again when either changes', () => {
    const dir = tempDir();
    const homes: AgentHome[] = [{ agent: 'claude', home: path.join(dir, 'claude') }];
    const cacheFile = path.join(dir, 'cache.json');
    const file = transcript(homes[0]!.home, A, 'first words');
    expect(titles(homes, cacheFile)).toEqual(['first words']);
    rewriteInPlace(file, 'other words');
    expect(titles(homes, cacheFile)).toEqual(['first words']);
    // The same size, another mtime.
    fs.utimesSync(file, 1_800_000_001, 1_800_000_001);
    expect(titles(homes, cacheFile)).toEqual(['other words']);
    // The same mtime, another size.
    fs.writeFileSync(file, user('longer words here'));
    fs.utimesSync(file, 1_800_000_001, 1_800_000_001);
    expect(titles(homes, cacheFile)).toEqual(['longer words here']);
  });

  it('drops the entry of a removed file when every file was listed, and keeps it for a listing of one directory', () => {
    const dir = tempDir();
    const home = path.join(dir, 'claude');
    const homes: AgentHome[] = [{ agent: 'claude', home }];
    const cacheFile = path.join(dir, 'cache.json');
    const gone = transcript(home, A, 'to be removed');
    write(path.join(home, 'projects', '-v', `${B}.jsonl`), user('elsewhere').replace('"/w"', '"/v"'));
    expect(titles(homes, cacheFile).sort()).toEqual(['elsewhere', 'to be removed']);
    const cachedNames = () => {
      const parsed = parseCache(fs.readFileSync(cacheFile, 'utf8'));
      if (typeof parsed === 'string') throw new Error(parsed);
      return [...(parsed.get('claude')?.values() ?? [])].flatMap((files) => [...files.keys()]).sort();
    };
    fs.rmSync(gone);
    expect(titles(homes, cacheFile, { kind: 'dirs', dirs: ['/v'] })).toEqual(['elsewhere']);
    expect(cachedNames()).toEqual([`${A}.jsonl`, `${B}.jsonl`]);
    expect(titles(homes, cacheFile)).toEqual(['elsewhere']);
    expect(cachedNames()).toEqual([`${B}.jsonl`]);
  });

  it('keeps the entries of a second home whose path starts with the first one\'s (~/.claude, ~/.claude-work)', () => {
    const dir = tempDir();
    const homes: AgentHome[] = [{ agent: 'claude', home: path.join(dir, '.claude') }, { agent: 'claude', home: path.join(dir, '.claude-work') }];
    const cacheFile = path.join(dir, 'cache.json');
    transcript(homes[0]!.home, A, 'personal');
    const work = transcript(homes[1]!.home, B, 'work old');
    expect(titles(homes, cacheFile).sort()).toEqual(['personal', 'work old']);
    rewriteInPlace(work, 'work new');
    // Read again, the work transcript would say "work new": the cache still answers for it.
    expect(titles(homes, cacheFile).sort()).toEqual(['personal', 'work old']);
  });

  it('drops a store kept in one file (opencode\'s database) when it is gone, not the files beside it', () => {
    const cache = HistoryCache.load(path.join(tempDir(), 'cache.json'));
    const row: HistoryEntry = { id: 'ses_1', title: 't', firstPrompt: '', updatedAt: 1, messages: null, cwd: '/w' };
    cache.set('opencode', { path: '/data/opencode/opencode.db', size: 1, mtimeMs: 1 }, [row]);
    cache.set('opencode', { path: '/data/opencode/other.db', size: 1, mtimeMs: 1 }, [row]);
    cache.save();
    const next = HistoryCache.load(cache.file!);
    next.forget('opencode', '/data/opencode/opencode.db');
    expect(next.get('opencode', { path: '/data/opencode/opencode.db', size: 1, mtimeMs: 1 })).toBeNull();
    expect(next.get('opencode', { path: '/data/opencode/other.db', size: 1, mtimeMs: 1 })).toEqual([row]);
  });
});

describe('the listing', () => {
  it('orders files written in the same millisecond by id, newest first otherwise', () => {
    const dir = tempDir();
    const home = path.join(dir, 'claude');
    const ids = ['33333333-2222-4333-8444-555555555555', A, B];
    for (const id of ids) transcript(home, id, id.slice(0, 2));
    transcript(home, 'ffffffff-2222-4333-8444-555555555555', 'newest', 1_800_000_009);
    const found = collect([{ agent: 'claude', home }], { kind: 'all' }, HistoryCache.none()).found;
    expect(found.map((f) => f.title)).toEqual(['newest', '11', '22', '33']);
  });
});
