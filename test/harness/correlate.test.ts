import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  claudeSlug,
  entryTimeMs,
  grokEncodeCwd,
  resolveId,
  type ResolveOptions,
  type RunEvidence,
} from '../../src/harness/index.js';
import { BOOKKEEPING, ID, OTHER, tempDir, USER_LINE, v7, write } from './fixtures.js';

// Channel 4, store correlation (contract section 6, 8.5), on temp directories.

const CWD = '/w/project';
const none: ReadonlySet<string> = new Set();

function correlated(
  run: Partial<RunEvidence> & Pick<RunEvidence, 'harness' | 'home' | 'spawnedAt'>,
  opts: Partial<ResolveOptions> = {},
): string | null {
  const evidence: RunEvidence = { cwd: CWD, captureFile: null, exitHint: null, pinnedId: null, endedAt: null, ...run };
  const resolved = resolveId(evidence, { now: Date.now(), correlate: true, heldByOthers: none, everHeld: none, ...opts });
  if (resolved !== null) expect(resolved.source).toBe('correlation');
  return resolved?.id ?? null;
}

function timeOf(file: string): number {
  return entryTimeMs(fs.statSync(file));
}

describe('the time of a store entry', () => {
  it.each([
    ['the birth time when there is one', { birthtimeMs: 1000.9, mtimeMs: 5000 }, 1000],
    ['the mtime when birth time is unavailable', { birthtimeMs: 0, mtimeMs: 5000.7 }, 5000],
  ])('is %s', (_label, stats, expected) => expect(entryTimeMs(stats)).toBe(expected));
});

describe('codex rollout correlation', () => {
  const spawnedAt = Date.UTC(2026, 0, 1, 0, 0, 10);
  const meta = (cwd: string, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { id: 'x', cwd, thread_source: 'user', ...extra } });

  function rollout(home: string, folder: string, id: string, firstLine = meta(CWD)): void {
    write(path.join(home, 'sessions', folder, `rollout-2026-01-01T00-00-00-${id}.jsonl`), `${firstLine}\n{"type":"x"}\n`);
  }

  it.each([
    ['30 s before the spawn', -30_000, true],
    ['30.001 s before the spawn', -30_001, false],
    ['at the spawn', 0, true],
    ['at the end of the run', 120_000, true],
    ['1 ms after the end of the run', 120_001, false],
  ])('takes a rollout minted %s: %s', (_label, offset, found) => {
    const home = tempDir();
    const id = v7(spawnedAt + offset);
    rollout(home, '2026/01/01', id);
    expect(correlated({ harness: 'codex', home, spawnedAt, endedAt: spawnedAt + 120_000 })).toBe(found ? id : null);
  });

  it('uses now as the end of a run that is still going', () => {
    const home = tempDir();
    const id = v7(spawnedAt + 600_000);
    rollout(home, '2026/01/01', id);
    expect(correlated({ harness: 'codex', home, spawnedAt }, { now: spawnedAt + 600_000 })).toBe(id);
    expect(correlated({ harness: 'codex', home, spawnedAt }, { now: spawnedAt + 599_999 })).toBeNull();
  });

  it.each([
    ['spawn day − 2 across a year', Date.UTC(2026, 0, 1, 0, 0, 10), '2025/12/30', true],
    ['spawn day − 3 across a year', Date.UTC(2026, 0, 1, 0, 0, 10), '2025/12/29', false],
    ['spawn day − 2 across a month', Date.UTC(2026, 2, 1, 1), '2026/02/27', true],
    ['spawn day − 3 across a month', Date.UTC(2026, 2, 1, 1), '2026/02/26', false],
    ['end day + 1 across a month', Date.UTC(2026, 1, 28, 23, 59, 50), '2026/03/01', true],
    ['end day + 1 across a year', Date.UTC(2025, 11, 31, 23, 59, 50), '2026/01/01', true],
    ['end day + 2 across a year', Date.UTC(2025, 11, 31, 23, 59, 50), '2026/01/02', false],
  ])('probes the date folder of %s', (_label, spawn, folder, found) => {
    const home = tempDir();
    const id = v7(spawn + 1_000);
    rollout(home, folder, id);
    expect(correlated({ harness: 'codex', home, spawnedAt: spawn, endedAt: spawn + 5_000 })).toBe(found ? id : null);
  });

  it.each([
    ['another cwd', meta('/w/other'), false],
    ['a cwd with a trailing slash', meta(`${CWD}/`), false],
    ['a subagent thread', meta(CWD, { thread_source: 'subagent' }), false],
    ['a subagent thread source object', meta(CWD, { thread_source: { subagent: { parent: 'x' } } }), false],
    ['no thread source', JSON.stringify({ payload: { cwd: CWD } }), true],
    ['a first line that is not JSON', 'not json', false],
    ['a first line without a payload', JSON.stringify({ cwd: CWD }), false],
    ['a first line of exactly 64 KiB', padTo(65_536), true],
    ['a first line over 64 KiB', padTo(65_537), false],
  ])('judges a rollout whose first record has %s', (_label, firstLine, found) => {
    const home = tempDir();
    const id = v7(spawnedAt + 1_000);
    rollout(home, '2026/01/01', id, firstLine);
    expect(correlated({ harness: 'codex', home, spawnedAt, endedAt: spawnedAt + 5_000 })).toBe(found ? id : null);
  });

  function padTo(bytes: number): string {
    const base = meta(CWD, { pad: '' });
    const line = meta(CWD, { pad: 'x'.repeat(bytes - Buffer.byteLength(base)) });
    expect(Buffer.byteLength(line)).toBe(bytes);
    return line;
  }

  it('needs exactly one candidate, after removing ids held now or ever', () => {
    const home = tempDir();
    const a = v7(spawnedAt + 1_000, 1);
    const b = v7(spawnedAt + 2_000, 2);
    rollout(home, '2026/01/01', a);
    rollout(home, '2025/12/31', b);
    const run = { harness: 'codex' as const, home, spawnedAt, endedAt: spawnedAt + 5_000 };
    expect(correlated(run)).toBeNull();
    expect(correlated(run, { heldByOthers: new Set([a]) })).toBe(b);
    expect(correlated(run, { everHeld: new Set([b]) })).toBe(a);
    expect(correlated(run, { heldByOthers: new Set([a]), everHeld: new Set([b]) })).toBeNull();
  });

  it('ignores names that are not v7 rollouts', () => {
    const home = tempDir();
    const dir = path.join(home, 'sessions', '2026', '01', '01');
    write(path.join(dir, `rollout-x-${ID}.jsonl`), `${meta(CWD)}\n`); // v4: no time
    write(path.join(dir, `rollout-x-${v7(spawnedAt).toUpperCase()}.jsonl`), `${meta(CWD)}\n`);
    write(path.join(dir, `notes-${v7(spawnedAt)}.jsonl`), `${meta(CWD)}\n`);
    expect(correlated({ harness: 'codex', home, spawnedAt, endedAt: spawnedAt + 5_000 })).toBeNull();
  });

  it('is not tried for a task with a pinned or targeted id, nor when not asked', () => {
    const home = tempDir();
    const id = v7(spawnedAt + 1_000);
    rollout(home, '2026/01/01', id);
    const run = { harness: 'codex' as const, home, spawnedAt, endedAt: spawnedAt + 5_000 };
    expect(correlated(run)).toBe(id);
    expect(correlated(run, { correlate: false })).toBeNull();
    const evidence: RunEvidence = { ...run, cwd: CWD, captureFile: null, exitHint: null, pinnedId: OTHER };
    const opts: ResolveOptions = { now: Date.now(), correlate: true, heldByOthers: none, everHeld: none };
    expect(resolveId(evidence, opts)).toEqual({ id: OTHER, source: 'pinned' });
  });
});

describe('grok session-directory correlation', () => {
  function session(home: string, name: string, cwd = CWD): string {
    const dir = path.join(home, 'sessions', grokEncodeCwd(cwd), name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  it.each([
    ['/a%b', '%2Fa%25b'],
    ['/w/my.project', '%2Fw%2Fmy.project'],
    ['/x/%2F', '%2Fx%2F%252F'],
    ['/ü n', '%2Fü n'],
  ])('encodes %j as %j', (cwd, encoded) => expect(grokEncodeCwd(cwd)).toBe(encoded));

  it.each([
    ['30 s after it', -30_000, true],
    ['30.001 s after it', -30_001, false],
    ['30 s before it', 30_000, true],
    ['30.001 s before it', 30_001, false],
  ])('takes a session born %s relative to the spawn: %s', (_label, spawnOffset, found) => {
    const home = tempDir();
    const born = timeOf(session(home, ID));
    // The birth time cannot be set, so the spawn is placed relative to it.
    expect(correlated({ harness: 'grok', home, spawnedAt: born + spawnOffset, endedAt: born + 600_000 })).toBe(
      found ? ID : null,
    );
  });

  it('keeps the seed window: a session born after spawn + 30 s is out even while the run goes on', () => {
    const home = tempDir();
    const born = timeOf(session(home, ID));
    expect(correlated({ harness: 'grok', home, spawnedAt: born - 31_000, endedAt: born + 1_000 })).toBeNull();
  });

  it('counts non-uuid directories against uniqueness and ignores plain files', () => {
    const home = tempDir();
    const born = timeOf(session(home, ID));
    write(path.join(home, 'sessions', grokEncodeCwd(CWD), OTHER), 'a file, not a session');
    const run = { harness: 'grok' as const, home, spawnedAt: born, endedAt: born + 1_000 };
    expect(correlated(run)).toBe(ID);
    session(home, 'notes');
    expect(correlated(run)).toBeNull();
  });

  it('needs exactly one candidate, after removing ids held now or ever', () => {
    const home = tempDir();
    const born = timeOf(session(home, ID));
    session(home, OTHER);
    const run = { harness: 'grok' as const, home, spawnedAt: born, endedAt: born + 1_000 };
    expect(correlated(run)).toBeNull();
    expect(correlated(run, { heldByOthers: new Set([ID]) })).toBe(OTHER);
    expect(correlated(run, { everHeld: new Set([OTHER]) })).toBe(ID);
  });

  it('looks only in the directory of the task’s cwd', () => {
    const home = tempDir();
    const born = timeOf(session(home, ID, '/w/other'));
    expect(correlated({ harness: 'grok', home, spawnedAt: born, endedAt: born })).toBeNull();
  });
});

describe('claude transcript correlation', () => {
  function transcriptFile(home: string, stem: string, text = USER_LINE): string {
    return write(path.join(home, 'projects', claudeSlug(CWD), `${stem}.jsonl`), text);
  }

  it.each([
    ['30 s after the transcript', -30_000, 0, true],
    ['30.001 s after it', -30_001, 0, false],
    ['long before it, with the run ending at it', 600_000, 0, true],
    ['long before it, with the run ending 1 ms before it', 600_000, -1, false],
  ])('takes a transcript for a spawn %s: %s', (_label, before, endOffset, found) => {
    const home = tempDir();
    const born = timeOf(transcriptFile(home, ID));
    expect(correlated({ harness: 'claude', home, spawnedAt: born - before, endedAt: born + endOffset })).toBe(
      found ? ID : null,
    );
  });

  it('counts a non-uuid stem against uniqueness', () => {
    const home = tempDir();
    const born = timeOf(transcriptFile(home, ID));
    const run = { harness: 'claude' as const, home, spawnedAt: born, endedAt: born + 1_000 };
    expect(correlated(run)).toBe(ID);
    transcriptFile(home, 'agent-1234');
    expect(correlated(run)).toBeNull();
  });

  it('needs exactly one candidate, after removing ids held now or ever', () => {
    const home = tempDir();
    const born = timeOf(transcriptFile(home, ID));
    transcriptFile(home, OTHER);
    const run = { harness: 'claude' as const, home, spawnedAt: born, endedAt: born + 1_000 };
    expect(correlated(run)).toBeNull();
    expect(correlated(run, { everHeld: new Set([OTHER]) })).toBe(ID);
    expect(correlated(run, { heldByOthers: new Set([ID]) })).toBe(OTHER);
  });

  it('does not resume the single candidate when it holds no user record (8.2)', () => {
    const home = tempDir();
    const born = timeOf(transcriptFile(home, ID, BOOKKEEPING));
    expect(correlated({ harness: 'claude', home, spawnedAt: born, endedAt: born + 1_000 })).toBeNull();
  });

  it('ignores other extensions and directories', () => {
    const home = tempDir();
    const born = timeOf(transcriptFile(home, ID));
    write(path.join(home, 'projects', claudeSlug(CWD), `${OTHER}.json`), USER_LINE);
    fs.mkdirSync(path.join(home, 'projects', claudeSlug(CWD), `${OTHER}.jsonl`, 'sub'), { recursive: true });
    fs.mkdirSync(path.join(home, 'projects', claudeSlug(CWD), ID, 'subagents'), { recursive: true });
    expect(correlated({ harness: 'claude', home, spawnedAt: born, endedAt: born + 1_000 })).toBe(ID);
  });
});
