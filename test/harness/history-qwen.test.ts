import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { harnessFor, qwenProjectDir, qwenTranscript, type HistoryEntry, type HistoryScope } from '../../src/harness/index.js';
import { ID, OTHER, tempDir, write } from './fixtures.js';

// qwen's history reader on transcripts written the way qwen-code 0.24.4 writes them: one
// conversation a file, `cwd` on every record, its `custom_title` system record as the title.

const CWD = '/work/my proj';
const qwen = harnessFor('qwen').history!;

const rec = (id: string, type: string, text: string, over: object = {}) =>
  ({ uuid: 'u', parentUuid: null, sessionId: id, timestamp: 'x', type, cwd: CWD, version: '0.24.4', message: { role: type === 'user' ? 'user' : 'model', parts: [{ text }] }, ...over });
const title = (id: string, customTitle: string) => ({ sessionId: id, type: 'system', subtype: 'custom_title', cwd: CWD, systemPayload: { customTitle, titleSource: 'manual' } });
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

function rows(home: string, scope: HistoryScope = { kind: 'dirs', dirs: [CWD] }): HistoryEntry[] {
  return qwen.files(home, scope).files.flatMap((file) => {
    const got = qwen.read(file, home);
    return got.kind === 'rows' ? got.rows : [];
  }).filter((row) => scope.kind === 'all' || scope.dirs.includes(row.cwd));
}

describe('qwen history', () => {
  it("lists each transcript of the directory with qwen's own title, else its first prompt, and its user turns", () => {
    const home = tempDir();
    write(qwenTranscript(home, CWD, ID), jsonl([rec(ID, 'user', 'fix the login bug'), rec(ID, 'assistant', 'done'), rec(ID, 'user', 'thanks'), title(ID, 'Login fix')]));
    write(qwenTranscript(home, CWD, OTHER), jsonl([rec(OTHER, 'system', 'snapshot'), rec(OTHER, 'user', 'hello there')]));
    const byId = new Map(rows(home).map((row) => [row.id, row]));
    expect(byId.get(ID)).toMatchObject({ title: 'Login fix', firstPrompt: 'fix the login bug', messages: 2, cwd: CWD });
    expect(byId.get(OTHER)).toMatchObject({ title: 'hello there', messages: 1 });
  });

  it('never lists a transcript without a typed message, a runtime file, a subagent transcript or another directory', () => {
    const home = tempDir();
    write(qwenTranscript(home, CWD, ID), jsonl([rec(ID, 'system', 'x'), rec(ID, 'user', '  ')]));
    write(path.join(qwenProjectDir(home, CWD), 'chats', `${OTHER}.runtime.json`), '{}\n');
    write(path.join(qwenProjectDir(home, CWD), 'subagents', ID, 'agent-a1b2.jsonl'), jsonl([rec(ID, 'user', 'sub')]));
    write(qwenTranscript(home, '/work/other', OTHER), jsonl([rec(OTHER, 'user', 'elsewhere', { cwd: '/work/other' })]));
    expect(rows(home)).toEqual([]);
    expect(rows(home, { kind: 'all' }).map((r) => r.cwd)).toEqual(['/work/other']);
  });

  it('reads only the ends of a long transcript: the title from the tail, the turns unknown', () => {
    const home = tempDir();
    const filler = Array.from({ length: 200 }, () => rec(ID, 'assistant', 'x'.repeat(1000)));
    write(qwenTranscript(home, CWD, ID), jsonl([rec(ID, 'user', 'start'), ...filler, title(ID, 'Late title')]));
    expect(rows(home)).toEqual([expect.objectContaining({ id: ID, title: 'Late title', firstPrompt: 'start', messages: null })]);
  });

  it("searches the user's and qwen's messages, never the metadata", () => {
    const home = tempDir();
    write(qwenTranscript(home, CWD, ID), jsonl([rec(ID, 'user', 'where is the Lighthouse config'), rec(ID, 'assistant', 'in etc')]));
    const [file] = qwen.files(home, { kind: 'all' }).files;
    expect(qwen.search(file!, home, 'lighthouse')).toEqual({ kind: 'matches', matches: [{ id: ID, snippet: expect.stringContaining('Lighthouse') }] });
    expect(qwen.search(file!, home, '0.24.4')).toEqual({ kind: 'matches', matches: [] });
  });
});
