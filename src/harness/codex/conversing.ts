// codex's conversation facts, measured on 0.171.0 (/work/wt/send-measurements.md): raw mode,
// bracketed paste, the alternate screen; a paste is one message and an Enter after it submits at
// any delay, while an Enter ~10 ms after typed keys is swallowed (its paste burst). No prompt
// event reaches fleetcom (its hooks ask the user to trust them at start), so a prompt is
// confirmed by the user message its rollout gains, or by the turn's notify, whose
// `input-messages` end with the turn's prompt and whose `last-assistant-message` is the reply.
// A message sent while it works steers the turn under way. `codex queue` is not used: in the
// embedded mode fleetcom runs codex in, it delivered 5.5 to 9 s after the command (a poll).
import { composerLine, textField, textList, turnsOf, type Conversing, type StoredTurns, type TurnMark } from '../conversing.js';
import { readTextFile } from '../fs-read.js';
import { isValidId } from '../ids.js';
import { isJsonObject, jsonObjectOf } from '../json-shape.js';
import { findRollout } from './rollouts.js';

/** A notify payload: the end of a turn (codex signals no start). */
function codexTurnOf(payload: unknown): TurnMark | null {
  if (textField(payload, 'type') !== 'agent-turn-complete') return null;
  const sessionId = textField(payload, 'thread-id');
  if (sessionId === null || !isValidId(sessionId)) return null;
  // input-messages grows with the thread on some versions (resume): its last entry is this turn's.
  return { kind: 'end', sessionId, reply: textField(payload, 'last-assistant-message'), opens: true, prompts: textList(payload, 'input-messages').slice(-1) };
}

/** The `event_msg` payload of a rollout line, or null. */
function eventOf(line: string): Record<string, unknown> | null {
  const record = jsonObjectOf(line);
  if (record === null || record.type !== 'event_msg' || !isJsonObject(record.payload)) return null;
  return record.payload;
}

/** codex's own context, sent as user messages: never the user's words. */
const CONTEXT = /^\s*<(environment_context|user_instructions|user_shell_command)>/;

/** A `response_item` user message's text (how 0.171.0 records a prompt, measured), or null. */
function responseUserText(line: string): string | null {
  const record = jsonObjectOf(line);
  const payload = record?.type === 'response_item' && isJsonObject(record.payload) ? record.payload : null;
  if (payload === null || payload.type !== 'message' || payload.role !== 'user' || !Array.isArray(payload.content)) return null;
  const text = payload.content.flatMap((part) => (isJsonObject(part) && part.type === 'input_text' && typeof part.text === 'string' ? [part.text] : [])).join('');
  return text === '' || CONTEXT.test(text) ? null : text;
}

type Entry = { role: 'user' | 'assistant'; text: string };

/** A `response_item` assistant message's text, or null. */
function responseAssistantText(line: string): string | null {
  const record = jsonObjectOf(line);
  const payload = record?.type === 'response_item' && isJsonObject(record.payload) ? record.payload : null;
  if (payload === null || payload.type !== 'message' || payload.role !== 'assistant' || !Array.isArray(payload.content)) return null;
  const text = payload.content.flatMap((part) => (isJsonObject(part) && part.type === 'output_text' && typeof part.text === 'string' ? [part.text] : [])).join('');
  return text === '' ? null : text;
}

function promptOfLine(line: string): string | null {
  const event = eventOf(line);
  if (event !== null) return event.type === 'user_message' && typeof event.message === 'string' ? event.message : null;
  return responseUserText(line);
}

function codexTurns(home: string, _cwd: string, id: string): StoredTurns {
  const file = isValidId(id) ? findRollout(home, id) : null;
  if (file === null) return { kind: 'none', why: `no codex rollout for ${id} under ${home}` };
  const read = readTextFile(file);
  if (read.kind !== 'text') return { kind: 'none', why: `${file} cannot be read` };
  // Its events where it writes them; else the model's messages (`response_item`) themselves.
  const events: Entry[] = [];
  const items: Entry[] = [];
  for (const line of read.text.split('\n')) {
    const event = eventOf(line);
    if (event === null) {
      const user = responseUserText(line);
      if (user !== null) items.push({ role: 'user', text: user });
      else {
        const reply = responseAssistantText(line);
        if (reply !== null) items.push({ role: 'assistant', text: reply });
      }
      continue;
    }
    if (event.type === 'user_message' && typeof event.message === 'string') events.push({ role: 'user', text: event.message });
    else if (event.type === 'agent_message' && typeof event.message === 'string') events.push({ role: 'assistant', text: event.message });
    // The turn's own word for its reply, when it gives one.
    else if (event.type === 'task_complete' && typeof event.last_agent_message === 'string') events.push({ role: 'assistant', text: event.last_agent_message });
  }
  return { kind: 'read', file, turns: turnsOf(events.some((e) => e.role === 'user') ? events : items) };
}

export const codexConversing: Conversing = {
  bracketedPaste: true,
  // After a bracketed paste, Enter submitted at every delay measured; the burst is typed keys'.
  enterDelayMs: 50,
  confirms: 'store',
  replySignal: 'notify last-assistant-message',
  whileBusy: 'steers',
  turnOf: codexTurnOf,
  composer: composerLine({ prefix: /›\s?/, placeholders: ['Ask Codex to do anything'], dialogs: ['Would you like to run the following command?', 'Press enter to confirm'] }),
  promptFile: (home, _cwd, id) => (isValidId(id) ? findRollout(home, id) : null),
  promptOfLine,
  storedTurns: codexTurns,
};
