import { copyFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiProjectHash, grokEncodeCwd, harnessFor, type HistoryEntry, type HistoryReader, type HistoryScope } from '../../src/harness/index.js';
import { ID, OTHER, tempDir, write } from './fixtures.js';

// The gemini, grok and opencode history readers on store files laid out as each client keeps
// them (gemini 0.61.0 and opencode 1.18.33 measured; grok as fleetcom's fake keeps it).

const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

function rows(reader: HistoryReader, home: string, scope: HistoryScope): HistoryEntry[] {
  return reader.files(home, scope).files.flatMap((file) => {
    const got = reader.read(file, home);
    return got.kind === 'rows' ? got.rows : [];
  }).filter((row) => scope.kind === 'all' || scope.dirs.includes(row.cwd));
}

describe('gemini history', () => {
  const gemini = harnessFor('gemini').history!;
  const CWD = '/work/app';
  const context = { $set: { messages: [{ id: 'c', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.' }] }] } };
  function session(home: string, id: string, records: unknown[], kind = 'main', dir?: string): string {
    const header = { sessionId: id, projectHash: geminiProjectHash(CWD), startTime: 'x', lastUpdated: 'x', kind };
    return write(path.join(home, '.gemini', 'tmp', 'app', 'chats', ...(dir ? [dir] : []), `session-2026-12-01T20-14-${id.slice(0, 8)}.jsonl`), jsonl([header, context, ...records]));
  }

  it('lists main sessions with the first user message as title, the directory from .project_root', () => {
    const home = tempDir();
    write(path.join(home, '.gemini', 'tmp', 'app', '.project_root'), CWD);
    session(home, ID, [{ id: 'a', type: 'user', content: [{ text: 'explain the parser' }] }, { id: 'b', type: 'gemini', content: 'sure' }, { id: 'd', type: 'user', content: [{ text: 'more' }] }]);
    session(home, OTHER, [{ id: 'a', type: 'user', content: [{ text: 'the delegated task' }] }], 'subagent', ID);
    const empty = '22222222-3333-4444-8555-666666666666';
    session(home, empty, []);
    expect(rows(gemini, home, { kind: 'dirs', dirs: [CWD] })).toEqual([
      expect.objectContaining({ id: ID, title: 'explain the parser', firstPrompt: 'explain the parser', messages: 2, cwd: CWD }),
    ]);
  });

  it('takes the directory from projects.json when .project_root is missing, and refuses one whose hash differs', () => {
    const home = tempDir();
    session(home, ID, [{ id: 'a', type: 'user', content: [{ text: 'hi' }] }]);
    write(path.join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [CWD]: 'app' } }));
    expect(rows(gemini, home, { kind: 'all' }).map((r) => r.cwd)).toEqual([CWD]);
    write(path.join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { '/not/it': 'app' } }));
    const [file] = gemini.files(home, { kind: 'all' }).files;
    expect(gemini.read(file!, home)).toEqual({ kind: 'skipped', why: 'its projectHash is not that of /not/it' });
  });
});

describe('grok history', () => {
  const grok = harnessFor('grok').history!;
  it('lists each session directory of the cwd with its first user message', () => {
    const home = tempDir();
    const cwd = '/work/a%b';
    write(path.join(home, 'sessions', grokEncodeCwd(cwd), ID, 'messages.jsonl'), jsonl([{ role: 'user', content: 'grok this' }, { role: 'assistant', content: 'ok' }]));
    write(path.join(home, 'sessions', grokEncodeCwd('/other'), OTHER, 'messages.jsonl'), jsonl([{ role: 'user', content: 'other' }]));
    expect(rows(grok, home, { kind: 'dirs', dirs: [cwd] })).toEqual([expect.objectContaining({ id: ID, title: 'grok this', cwd, messages: 1 })]);
    expect(rows(grok, home, { kind: 'all' })).toHaveLength(2);
    const [file] = grok.files(home, { kind: 'dirs', dirs: [cwd] }).files;
    expect(grok.search(file!, home, 'GROK T')).toEqual({ kind: 'matches', matches: [{ id: ID, snippet: 'grok this' }] });
    expect(grok.search(file!, home, 'nowhere')).toEqual({ kind: 'matches', matches: [] });
  });
});

describe('opencode history', () => {
  const opencode = harnessFor('opencode').history!;
  const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'opencode', 'sessions.db');
  it('lists the root sessions of the directory from the database and its WAL, with their titles; never a child', () => {
    const db = path.join(tempDir(), 'opencode.db');
    copyFileSync(FIXTURE, db);
    copyFileSync(`${FIXTURE}-wal`, `${db}-wal`);
    const found = rows(opencode, db, { kind: 'dirs', dirs: ['/w/app'] });
    expect(found.map((r) => r.id).sort()).toEqual(['ses_dccbe0000000WalOnlyWalOnly', 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q']);
    expect(found.find((r) => r.id === 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q')?.title).toBe('x'.repeat(6000));
    const [file] = opencode.files(db, { kind: 'all' }).files;
    expect(file!.size).toBeGreaterThan(0);
  });

  it('skips a database it cannot read, naming why', () => {
    const db = write(path.join(tempDir(), 'opencode.db'), 'not a database');
    const [file] = opencode.files(db, { kind: 'all' }).files;
    expect(opencode.read(file!, db)).toEqual({ kind: 'skipped', why: 'not an SQLite database' });
  });
});
