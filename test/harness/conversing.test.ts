// The agents' conversation facts, pure: their composers read from screens as measured
// (send-measurements.md) and as the fakes draw them, the turn marks of their signal payloads,
// and one conversation's turns read back from each agent's own store.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentText, normalizeMessage, sameMessage, turnsOf } from '../../src/harness/conversing.js';
import { claudeProjectDirs, geminiProjectHash, harnessFor, utcDateFolders, v7TimeMs, type HarnessName } from '../../src/harness/index.js';
import { qwenTranscript } from '../../src/harness/qwen/store.js';
import { CID, ID, OTHER, tempDir, write } from './fixtures.js';

const composer = (agent: HarnessName, screen: string) => harnessFor(agent).conversing.composer(screen);
const turnOf = (agent: HarnessName, payload: unknown) => harnessFor(agent).conversing.turnOf(payload);
const lines = (...records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('composers on the screen', () => {
  it.each([
    ['claude 2.1.x, a draft between its rules', 'claude', 'reply text\n────────\n❯ my half typed draft\n────────\n  ? for shortcuts', 'my half typed draft'],
    ['claude, empty', 'claude', '⏺ done\n────────\n❯\n────────\n  ? for shortcuts', ''],
    ['claude, a paste', 'claude', '❯ [Pasted text #1 +1025 lines]', '[Pasted text #1 +1025 lines]'],
    ['claude 2.1.197, a message queued behind the turn', 'claude', '✻ Working…\n────────\n❯ Press up to edit queued messages\n────────', ''],
    ['opencode, a message queued behind the turn', 'opencode', '┃  second …\n┃   QUEUED\n┃', ''],
    ['claude, the fake', 'claude', '✻ Claude Code (fake)\n\n? for shortcuts\n❯ hello', 'hello'],
    ['claude, a permission dialog below it', 'claude', '❯\n⏺ Bash(touch x)\n Do you want to proceed?\n ❯ 1. Yes\n   2. No', null],
    ['claude, a dialog answered above it (history)', 'claude', ' Do you want to proceed?\n ❯ 1. Yes\n⏺ done\n\n? for shortcuts\n❯ ', ''],
    ['claude, a question picker', 'claude', '❯\nDeploy to prod now?\n❯ 1. Yes\n  2. No\nEnter to select · ↑/↓ to navigate · Esc to cancel', null],
    ['claude, starting (no prompt yet)', 'claude', '✻ Claude Code (fake) in /w', null],
    ['codex, its placeholder', 'codex', '• hello\n\n› Ask Codex to do anything\n\n  ? for shortcuts', ''],
    ['codex, a draft', 'codex', '› my half typed draft …', 'my half typed draft …'],
    ['codex, an approval', 'codex', '› \n  Would you like to run the following command?\n› 1. Yes, proceed (y)', null],
    ['gemini, its placeholder in a box', 'gemini', '╭────╮\n│ >   Type your message or @path/to/file │\n╰────╯', ''],
    ['gemini, a draft', 'gemini', ' > my half typed draft …', 'my half typed draft …'],
    ['gemini, a paste', 'gemini', '> [Pasted Text: 1026 lines]\nPress Ctrl+O to expand pasted text', '[Pasted Text: 1026 lines]'],
    ['opencode 1.18.33, an empty box', 'opencode', 'opencode (fake)\n┃\n┃\n┃', ''],
    ['opencode 1.18.33, a draft on the first row of its box', 'opencode', '┃  my half typed draft …\n┃\n┃', 'my half typed draft …'],
    ['kilo 7.7.7, a paste', 'kilo', '┃  [Pasted ~1026 lines]', '[Pasted ~1026 lines]'],
    ['qwen 0.24.4, a draft and its zero-width space', 'qwen', '> my half typed draft …\u200b', 'my half typed draft …'],
    ['pi 1.6.0, a draft between its rules', 'pi', 'reply\n────────────────\nmy half typed draft …\n────────────────\n mock-model', 'my half typed draft …'],
    ['pi 1.6.0, empty', 'pi', '────────────────\n\n────────────────', ''],
    ['pi, not drawn yet', 'pi', 'pi (fake)', null],
    ['copilot 1.0.102, a saved paste', 'copilot', '────\n❯ [Saved pasted content to workspace (100.0 KB) id=1]\n────', '[Saved pasted content to workspace (100.0 KB) id=1]'],
    ['copilot, the trust question', 'copilot', 'Do you trust the files in this folder?\n❯ 1. Yes\n  2. Yes, and remember', null],
    ['copilot, ready', 'copilot', ' / commands · ? help\n❯ ', ''],
    ['qwen, its placeholder', 'qwen', '>   Type your message or @path/to/file', ''],
    ['grok, ready', 'grok', 'fake reply to: x\ngrok> ', ''],
  ] as const)('%s', (_what, agent, screen, read) => {
    expect(composer(agent, screen)).toBe(read);
  });
});

describe('turn marks of signal payloads', () => {
  it('claude and copilot: UserPromptSubmit starts a turn with its prompt, Stop ends it with last_assistant_message', () => {
    for (const agent of ['claude', 'copilot'] as const) {
      expect(turnOf(agent, { hook_event_name: 'UserPromptSubmit', session_id: ID, prompt: 'a\nb' })).toEqual({ kind: 'start', sessionId: ID, prompt: 'a\nb' });
      expect(turnOf(agent, { hook_event_name: 'Stop', session_id: ID, last_assistant_message: 'done' })).toEqual({ kind: 'end', sessionId: ID, reply: 'done' });
      expect(turnOf(agent, { hook_event_name: 'Stop', session_id: ID })).toEqual({ kind: 'end', sessionId: ID, reply: null });
      expect(turnOf(agent, { hook_event_name: 'Notification', session_id: ID })).toBeNull();
      expect(turnOf(agent, { hook_event_name: 'Stop', session_id: 'not-an-id' })).toBeNull();
    }
  });

  it('codex: a notify is a whole turn (it signals no start), its prompt the last input message', () => {
    const payload = { type: 'agent-turn-complete', 'thread-id': CID, 'input-messages': ['earlier', 'now'], 'last-assistant-message': 'reply' };
    expect(turnOf('codex', payload)).toEqual({ kind: 'end', sessionId: CID, reply: 'reply', opens: true, prompts: ['now'] });
    expect(turnOf('codex', { ...payload, type: 'other' })).toBeNull();
  });

  it("opencode's plugin lines: prompt, busy, idle with the reply", () => {
    const sid = 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q';
    expect(turnOf('opencode', { type: 'prompt', sessionID: sid, text: 'go' })).toEqual({ kind: 'start', sessionId: sid, prompt: 'go', joins: true });
    expect(turnOf('kilo', { type: 'session.status', sessionID: sid, status: 'busy' })).toEqual({ kind: 'start', sessionId: sid, prompt: null });
    expect(turnOf('opencode', { type: 'session.idle', sessionID: sid, reply: 'ok' })).toEqual({ kind: 'end', sessionId: sid, reply: 'ok' });
    expect(turnOf('opencode', { type: 'session.status', sessionID: sid, status: 'idle' })).toBeNull();
  });

  it("pi's extension lines: input, agent_start, agent_settled with the reply", () => {
    expect(turnOf('pi', { type: 'input', sessionId: ID, text: 'go' })).toEqual({ kind: 'start', sessionId: ID, prompt: 'go', joins: true });
    expect(turnOf('pi', { type: 'agent_settled', sessionId: ID, reply: 'ok' })).toEqual({ kind: 'end', sessionId: ID, reply: 'ok' });
  });

  it('cuts a forged text at 1 MiB', () => {
    const mark = turnOf('claude', { hook_event_name: 'UserPromptSubmit', session_id: ID, prompt: 'x'.repeat(2 * 1024 * 1024) });
    expect(mark?.kind === 'start' && mark.prompt?.length).toBe(1024 * 1024);
  });
});

describe('messages compared', () => {
  it('as a composer keeps them: line ends, trailing spaces and blank edge lines aside', () => {
    expect(normalizeMessage('\n  a  \r\nb\t\n\n')).toBe('  a\nb');
    expect(sameMessage('a\nb', 'a\r\nb  \n')).toBe(true);
    expect(sameMessage('a b', 'a  b')).toBe(false);
    expect(contentText([{ type: 'text', text: 'a' }, { type: 'tool_use' }, { text: 'b' }])).toBe('ab');
    expect(turnsOf([{ role: 'assistant', text: 'orphan' }, { role: 'user', text: 'q' }, { role: 'assistant', text: 'step' }, { role: 'assistant', text: 'final' }, { role: 'user', text: 'q2' }]))
      .toEqual([{ prompt: 'q', reply: 'final' }, { prompt: 'q2', reply: null }]);
  });
});

describe("one conversation's turns from each store", () => {
  const cwd = '/w/app';

  it("claude's transcript: typed prompts, the last text of each turn; sidechains, meta records and tool results left out", () => {
    const home = tempDir();
    const [dir] = claudeProjectDirs(home, cwd);
    write(path.join(dir!, `${ID}.jsonl`), lines(
      { type: 'user', message: { role: 'user', content: 'first' } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'thinking aloud' }, { type: 'tool_use', id: 't' }] } },
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't' }] } },
      { type: 'assistant', isSidechain: true, message: { role: 'assistant', content: 'a subagent' } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'the answer' }] } },
      { type: 'user', isMeta: true, message: { role: 'user', content: 'caveat' } },
      { type: 'user', message: { role: 'user', content: '<command-name>/clear</command-name>' } },
      { type: 'user', message: { role: 'user', content: 'second' } },
    ));
    expect(harnessFor('claude').conversing.storedTurns(home, cwd, ID)).toMatchObject({ kind: 'read', turns: [{ prompt: 'first', reply: 'the answer' }, { prompt: 'second', reply: null }] });
    expect(harnessFor('claude').conversing.storedTurns(home, cwd, OTHER).kind).toBe('none');
  });

  it("codex's rollout: its events where written, else its response items (0.171.0), never its own context", () => {
    const home = tempDir();
    // codex's date folders are UTC days of the v7 id's time.
    const rollout = (id: string) => path.join(home, 'sessions', utcDateFolders(v7TimeMs(id)!, v7TimeMs(id)!, 0, 0)[0]!, `rollout-2026-12-07T10-00-00-${id}.jsonl`);
    write(rollout(CID), lines(
      { type: 'session_meta', payload: { id: CID, cwd } },
      { type: 'event_msg', payload: { type: 'user_message', message: 'q1' } },
      { type: 'event_msg', payload: { type: 'agent_message', message: 'a1' } },
      { type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'a1 final' } },
    ));
    expect(harnessFor('codex').conversing.storedTurns(home, cwd, CID)).toMatchObject({ turns: [{ prompt: 'q1', reply: 'a1 final' }] });
    const items = '019f5453-de22-7240-b2e5-0d32692aa6d8';
    write(rollout(items), lines(
      { type: 'session_meta', payload: { id: items, cwd } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }] } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q1' }] } },
      { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a1' }] } },
    ));
    expect(harnessFor('codex').conversing.storedTurns(home, cwd, items)).toMatchObject({ turns: [{ prompt: 'q1', reply: 'a1' }] });
    const promptOf = harnessFor('codex').conversing.promptOfLine!;
    expect(promptOf(JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] } }))).toBe('hi');
    expect(promptOf(JSON.stringify({ type: 'event_msg', payload: { type: 'user_message', message: 'hi' } }))).toBe('hi');
    expect(promptOf(JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<user_instructions>x' }] } }))).toBeNull();
  });

  it("qwen's transcript, grok's messages and copilot's events", () => {
    const home = tempDir();
    write(qwenTranscript(home, cwd, ID), lines(
      { type: 'user', message: { role: 'user', parts: [{ text: 'q' }] } },
      { type: 'assistant', message: { role: 'model', parts: [{ text: 'thought', thought: true }, { text: 'a' }] } },
    ));
    expect(harnessFor('qwen').conversing.storedTurns(home, cwd, ID)).toMatchObject({ turns: [{ prompt: 'q', reply: 'a' }] });
    write(path.join(home, 'sessions', '%2Fw%2Fapp', ID, 'messages.jsonl'), lines({ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }));
    expect(harnessFor('grok').conversing.storedTurns(home, cwd, ID)).toMatchObject({ turns: [{ prompt: 'q', reply: 'a' }] });
    write(path.join(home, 'session-state', ID, 'events.jsonl'), lines(
      { type: 'user.message', data: { content: 'q' } },
      { type: 'assistant.message', data: { content: 'calling a tool', toolRequests: [{ name: 'bash' }] } },
      { type: 'assistant.message', data: { content: 'a' } },
    ));
    expect(harnessFor('copilot').conversing.storedTurns(home, cwd, ID)).toMatchObject({ turns: [{ prompt: 'q', reply: 'a' }] });
  });

  it("pi's session tree: the branch the last record is on, not an abandoned one", () => {
    const home = tempDir();
    const dir = path.join(home, 'sessions', '--w-app--');
    write(path.join(dir, `2026-12-07T10-00-00-000Z_${ID}.jsonl`), lines(
      { type: 'session', version: 3, id: ID, cwd },
      { type: 'message', id: 'u1', parentId: null, message: { role: 'user', content: 'q' } },
      { type: 'message', id: 'a1', parentId: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'abandoned' }] } },
      { type: 'message', id: 'a2', parentId: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'kept' }] } },
    ));
    expect(harnessFor('pi').conversing.storedTurns(home, cwd, ID)).toMatchObject({ turns: [{ prompt: 'q', reply: 'kept' }] });
  });

  it("gemini's session file: records and $set messages, its own session context left out", () => {
    const home = tempDir();
    const id = ID;
    const hash = geminiProjectHash(cwd);
    write(path.join(home, '.gemini', 'tmp', 'app', 'chats', `session-2026-12-07T10-00-${id.slice(0, 8)}.jsonl`), lines(
      { sessionId: id, projectHash: hash, kind: 'main' },
      { $set: { messages: [{ type: 'user', content: [{ text: '<session_context>\nfake' }] }] } },
      { type: 'user', content: [{ text: 'q' }] },
      { type: 'gemini', content: 'a' },
    ));
    expect(harnessFor('gemini').conversing.storedTurns(home, cwd, id)).toMatchObject({ turns: [{ prompt: 'q', reply: 'a' }] });
  });
});
