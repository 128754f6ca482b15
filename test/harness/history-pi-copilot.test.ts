import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { harnessFor, piProjectDir, type HistoryEntry, type HistoryReader, type HistoryScope } from '../../src/harness/index.js';
import { ID, OTHER, tempDir, write } from './fixtures.js';

// The pi and copilot history readers on store files laid out as pi 1.6.0 and copilot 1.0.102
// wrote them (clients/README.md).

const CWD = '/work/proj';
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** What the history layer makes of a reader: the scope applied to the rows' cwd. */
function rows(reader: HistoryReader, home: string, scope: HistoryScope = { kind: 'dirs', dirs: [CWD] }): HistoryEntry[] {
  return reader.files(home, scope).files.flatMap((file) => {
    const got = reader.read(file, home);
    return got.kind === 'rows' ? got.rows : [];
  }).filter((row) => scope.kind === 'all' || scope.dirs.includes(row.cwd));
}

const pi = harnessFor('pi').history!;
const copilot = harnessFor('copilot').history!;

describe('pi history', () => {
  const header = (id: string, cwd = CWD) => ({ type: 'session', version: 3, id, timestamp: '2026-12-03T07:53:57.077Z', cwd });
  const message = (role: string, content: unknown) => ({ type: 'message', id: 'a1b2c3d4', parentId: null, message: { role, content } });
  const session = (home: string, id: string, records: unknown[], cwd = CWD) =>
    write(path.join(home, 'sessions', piProjectDir(cwd), `2026-12-03T07-53-57-077Z_${id}.jsonl`), jsonl(records));

  it('lists a session with its first prompt, its /name as title, and its user turns', () => {
    const home = tempDir();
    session(home, ID, [header(ID), { type: 'model_change', provider: 'mock' }, message('user', 'remember the word lighthouse'), message('assistant', [{ type: 'text', text: 'ok' }]), message('user', [{ type: 'text', text: 'and then' }])]);
    session(home, OTHER, [header(OTHER), message('user', 'fix it'), { type: 'session_info', id: 'x', parentId: null, name: 'Refactor auth' }]);
    const byId = new Map(rows(pi, home).map((row) => [row.id, row]));
    expect(byId.get(ID)).toMatchObject({ title: 'remember the word lighthouse', firstPrompt: 'remember the word lighthouse', messages: 2, cwd: CWD });
    expect(byId.get(OTHER)?.title).toBe('Refactor auth');
    expect(pi.search(pi.files(home, { kind: 'all' }).files.find((f) => f.path.includes(ID))!, home, 'LIGHTHOUSE')).toEqual({ kind: 'matches', matches: [{ id: ID, snippet: 'remember the word lighthouse' }] });
  });

  it('never lists a file without a message, one whose header names another session, or another directory', () => {
    const home = tempDir();
    session(home, ID, [header(ID)]);
    session(home, OTHER, [header(ID), message('user', 'not mine')]);
    const elsewhere = '22222222-3333-4444-8555-666666666666';
    session(home, elsewhere, [header(elsewhere, '/work/other'), message('user', 'there')], '/work/other');
    expect(rows(pi, home)).toEqual([]);
    expect(rows(pi, home, { kind: 'all' }).map((r) => r.cwd)).toEqual(['/work/other']);
  });
});

describe('copilot history', () => {
  const start = (id: string, cwd = CWD) => ({ type: 'session.start', data: { sessionId: id, copilotVersion: '1.0.102', context: { cwd } } });
  const user = (content: string, agentId?: string) => ({ type: 'user.message', data: { content }, ...(agentId ? { agentId } : {}) });
  const session = (home: string, id: string, records: unknown[] | null) => {
    const dir = path.join(home, 'session-state', id);
    write(path.join(dir, 'workspace.yaml'), `id: ${id}\n`);
    if (records !== null) write(path.join(dir, 'events.jsonl'), jsonl(records));
  };

  it("lists a session with its first prompt and the user's turns, not a subagent's prompt", () => {
    const home = tempDir();
    session(home, ID, [start(ID), user('please look'), { type: 'assistant.message', data: { content: 'ok' } }, user('fleetcom-mock-subtask', '1369a727-2bcf-4c18-b795-93991c0f3f7a'), user('and more')]);
    expect(rows(copilot, home)).toEqual([expect.objectContaining({ id: ID, title: 'please look', firstPrompt: 'please look', messages: 2, cwd: CWD })]);
    const [file] = copilot.files(home, { kind: 'all' }).files;
    expect(copilot.search(file!, home, 'OK')).toMatchObject({ kind: 'matches', matches: [{ id: ID }] });
  });

  it('never lists a session without a message or of another directory in a directory scope', () => {
    const home = tempDir();
    session(home, ID, null);
    session(home, OTHER, [start(OTHER, '/work/other'), user('there')]);
    expect(copilot.files(home, { kind: 'all' }).files).toHaveLength(1);
    expect(rows(copilot, home)).toEqual([]);
    expect(rows(copilot, home, { kind: 'all' }).map((r) => r.id)).toEqual([OTHER]);
  });
});
