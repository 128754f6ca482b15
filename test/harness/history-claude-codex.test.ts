import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { harnessFor, type HistoryEntry, type HistoryReader, type HistoryScope } from '../../src/harness/index.js';
import { CID, ID, OTHER, tempDir, write } from './fixtures.js';
import { CHILD, C, USER, rollout } from './codex-threads.js';
import { firstRecordOf, sessionMeta } from '../../src/harness/codex/rollouts.js';

// The claude and codex history readers on store files written the way each client writes them:
// claude's title records (custom-title from /rename, ai-title, summary), codex's session_index.

const CWD = '/work/proj';
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** What the history layer makes of a reader: titles over the rows, the scope applied to their cwd. */
function rows(reader: HistoryReader, home: string, scope: HistoryScope = { kind: 'dirs', dirs: [CWD] }): HistoryEntry[] {
  const titles = reader.titles?.(home) ?? new Map<string, string>();
  return reader.files(home, scope).files.flatMap((file) => {
    const got = reader.read(file, home);
    return got.kind === 'rows' ? got.rows.map((row) => ({ ...row, title: titles.get(row.id) ?? row.title })) : [];
  }).filter((row) => scope.kind === 'all' || scope.dirs.includes(row.cwd));
}

const claude = harnessFor('claude').history!;
const codex = harnessFor('codex').history!;

function transcript(home: string, id: string, records: unknown[], cwd = CWD): string {
  return write(path.join(home, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), `${id}.jsonl`), jsonl(records));
}
const user = (content: unknown, cwd = CWD) => ({ type: 'user', cwd, sessionId: ID, message: { role: 'user', content } });
const assistant = (text: string) => ({ type: 'assistant', cwd: CWD, message: { role: 'assistant', content: [{ type: 'text', text }] } });

describe('claude history', () => {
  it("titles in claude's own order: the last custom-title, else the last ai-title, else summary, else the first prompt", () => {
    const home = tempDir();
    const base = [{ type: 'mode', mode: 'normal' }, user('fix the login bug'), assistant('done')];
    transcript(home, ID, [...base, { type: 'ai-title', aiTitle: 'Old AI' }, { type: 'custom-title', customTitle: 'first name' }, { type: 'ai-title', aiTitle: 'Newer AI' }, { type: 'custom-title', customTitle: 'renamed' }]);
    transcript(home, OTHER, [...base, { type: 'summary', summary: 'a summary' }, { type: 'ai-title', aiTitle: 'AI one' }, { type: 'ai-title', aiTitle: 'AI two' }]);
    const third = '22222222-3333-4444-8555-666666666666';
    transcript(home, third, [{ type: 'summary', summary: 'only summary', leafUuid: 'x' }, user('hello there')]);
    const fourth = '33333333-3333-4444-8555-666666666666';
    transcript(home, fourth, [user([{ type: 'text', text: '<command-name>/clear</command-name>' }]), user([{ type: 'text', text: 'the real prompt' }]), user([{ type: 'tool_result', content: 'x' }])]);
    const byId = new Map(rows(claude, home).map((row) => [row.id, row]));
    expect(byId.get(ID)).toMatchObject({ title: 'renamed', firstPrompt: 'fix the login bug', messages: 1, cwd: CWD });
    expect(byId.get(OTHER)?.title).toBe('AI two');
    expect(byId.get(third)?.title).toBe('only summary');
    expect(byId.get(fourth)).toMatchObject({ title: 'the real prompt', firstPrompt: 'the real prompt' });
  });

  it('never lists a transcript without a typed message, a subagent transcript or another directory', () => {
    const home = tempDir();
    transcript(home, ID, [{ type: 'mode', mode: 'normal' }, { type: 'permission-mode', permissionMode: 'default' }]);
    write(path.join(home, 'projects', '-work-proj', ID, 'subagents', `agent-${OTHER}.jsonl`), jsonl([user('sub')]));
    transcript(home, OTHER, [user('elsewhere', '/work/other')], '/work/other');
    expect(rows(claude, home)).toEqual([]);
    expect(rows(claude, home, { kind: 'all' }).map((r) => r.cwd)).toEqual(['/work/other']);
  });

  it('reads only the head and the tail of a long transcript: the title from the tail, messages unknown', () => {
    const home = tempDir();
    const filler = assistant('x'.repeat(1000));
    transcript(home, ID, [user('start here'), ...Array.from({ length: 400 }, () => filler), { type: 'custom-title', customTitle: 'at the end' }]);
    const [row] = rows(claude, home);
    expect(row).toMatchObject({ title: 'at the end', firstPrompt: 'start here', messages: null });
  });

  it('search streams the messages, case-insensitively, with a snippet; ids and metadata do not match', () => {
    const home = tempDir();
    transcript(home, ID, [user('please look at the Frobnicator module'), assistant('The frobnicator is fine')]);
    const [file] = claude.files(home, { kind: 'dirs', dirs: [CWD] }).files;
    expect(claude.search(file!, home, 'FROBNICATOR')).toEqual({ kind: 'matches', matches: [{ id: ID, snippet: 'please look at the Frobnicator module' }] });
    expect(claude.search(file!, home, 'permission')).toEqual({ kind: 'matches', matches: [] });
    expect(claude.search(file!, home, ID.slice(0, 8))).toEqual({ kind: 'matches', matches: [] });
  });
});

describe('codex history', () => {
  const meta = (id: string, cwd = CWD, extra = {}) => ({ timestamp: 't', type: 'session_meta', payload: { id, session_id: id, cwd, source: 'cli', thread_source: 'user', ...extra } });
  const said = (message: string, type = 'user_message') => ({ timestamp: 't', type: 'event_msg', payload: { type, message } });
  function roll(home: string, id: string, records: unknown[]): string {
    return write(path.join(home, 'sessions', '2026', '12', '01', `rollout-2026-12-01T20-11-48-${id}.jsonl`), jsonl(records));
  }

  it('titles from session_index.jsonl (the newest line wins), else the first user message', () => {
    const home = tempDir();
    roll(home, CID, [meta(CID), said('add a cache'), said('ok', 'agent_message'), said('and tests')]);
    const other = '019f5453-de22-7240-b2e5-0d32692aa6d0';
    roll(home, other, [meta(other), said('second thread')]);
    fs.writeFileSync(path.join(home, 'session_index.jsonl'), jsonl([
      { id: CID, thread_name: 'Add cache', updated_at: '2026-12-01T20:12:00Z' },
      { id: CID, thread_name: 'Add cache and tests', updated_at: '2026-12-01T20:13:00Z' },
    ]) + '{"id": torn');
    const byId = new Map(rows(codex, home).map((row) => [row.id, row]));
    expect(byId.get(CID)).toMatchObject({ title: 'Add cache and tests', firstPrompt: 'add a cache', messages: 2, cwd: CWD });
    expect(byId.get(other)?.title).toBe('second thread');
  });

  it('reads the user\'s messages as 0.171.0 writes them (response_item of role user), never its context blocks', () => {
    const home = tempDir();
    const item = (role: string, text: string) => ({ timestamp: 't', type: 'response_item', payload: { type: 'message', role, content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }] } });
    roll(home, CID, [meta(CID), item('developer', '<skills_instructions>x'), item('user', '<environment_context>\n  <cwd>/work/proj</cwd>'), item('user', '# AGENTS.md instructions for /work/proj'),
      item('user', 'the real question'), { timestamp: 't', type: 'event_msg', payload: { type: 'item_completed', item: { type: 'UserMessage' } } }, item('assistant', 'an answer')]);
    expect(rows(codex, home)).toEqual([expect.objectContaining({ id: CID, title: 'the real question', firstPrompt: 'the real question', messages: 1 })]);
    const [file] = codex.files(home, { kind: 'all' }).files;
    expect(codex.search(file!, home, 'AN ANSWER')).toEqual({ kind: 'matches', matches: [{ id: CID, snippet: 'an answer' }] });
    expect(codex.search(file!, home, 'environment_context')).toEqual({ kind: 'matches', matches: [] });
  });

  it('never lists a subagent thread, nor one of another directory', () => {
    const home = tempDir();
    rollout(home, C, CHILD);
    roll(home, CID, [meta(CID, '/elsewhere'), said('x')]);
    expect(rows(codex, home)).toEqual([]);
    expect(rows(codex, home, { kind: 'all' }).map((r) => r.id)).toEqual([CID]);
  });
});

describe("codex's first record", () => {
  const withText = (text: string) => JSON.stringify({ ...USER, payload: { ...USER.payload, base_instructions: { text, provenance: { type: 'model' } } } });
  const whole = (line: string) => JSON.parse(line) as { payload: Record<string, unknown> };
  const tricky = ['', 'plain', 'say "hi"', 'ends in a backslash \\', '\\"', '"', 'line\nbreak and \u2028', '"base_instructions":{"text":"inner"}', 'ünï', 'x'.repeat(30_000)];

  it.each(tricky.map((text) => [JSON.stringify(text).slice(0, 40), text]))('reads every field but the instructions\' text as a whole parse does: %s', (_, text) => {
    const line = withText(text);
    const cut = firstRecordOf(line);
    const expected = whole(line);
    (expected.payload.base_instructions as { text: string }).text = '';
    expect(cut).toEqual(expected);
  });

  it('parses whole a record the cut does not fit: spaced JSON, a torn text, no instructions', () => {
    const spaced = JSON.stringify(whole(withText('t')), null, 1);
    expect(firstRecordOf(spaced)).toEqual(JSON.parse(spaced));
    expect(firstRecordOf(withText('torn').slice(0, -60))).toBeNull();
    const bare = { type: 'session_meta', payload: { id: USER.payload.id, cwd: USER.payload.cwd } };
    expect(firstRecordOf(JSON.stringify(bare))).toEqual(bare);
    expect(firstRecordOf('[1]')).toBeNull();
  });

  it('does not refuse a record for a bad escape inside the instructions, which nothing reads', () => {
    const bad = withText('ok').replace('"text":"ok"', '"text":"a \\x b"');
    expect(() => JSON.parse(bad)).toThrow();
    expect(firstRecordOf(bad)).toMatchObject({ type: 'session_meta', payload: { cwd: USER.payload.cwd, thread_source: 'user' } });
  });

  it('lists a rollout with long instructions, quotes and backslashes in them, as one without', () => {
    const home = tempDir();
    const said = { timestamp: 't', type: 'event_msg', payload: { type: 'user_message', message: 'the question' } };
    write(path.join(home, 'sessions', '2026', '12', '01', `rollout-2026-12-01T20-11-48-${USER.payload.id}.jsonl`), `${withText('be "brief" \\ ü '.repeat(2000))}\n${JSON.stringify(said)}\n`);
    expect(rows(codex, home, { kind: 'all' })).toEqual([expect.objectContaining({ id: USER.payload.id, cwd: USER.payload.cwd, title: 'the question', messages: 1 })]);
  });

  it('reads a rollout whose instructions are long as one whose are short', () => {
    const home = tempDir();
    const file = rollout(home, USER.payload.id, withText('you are codex, "a coding agent" \\ '.repeat(800)));
    expect(sessionMeta(file)).toMatchObject({ id: USER.payload.id, cwd: USER.payload.cwd, source: 'cli', thread_source: 'user' });
  });
});
