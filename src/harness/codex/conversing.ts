// codex's conversation facts (0.171.0): no prompt event reaches fleetcom (its hooks need the
// user's trust), so a prompt is confirmed by the `user_message` record its rollout gains, or by
// the turn's notify, whose `input-messages` name the turn's prompts and whose
// `last-assistant-message` is the reply. Its composer is `› text`; an Enter within ~120 ms of
// text is taken as part of a paste (its paste burst).
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

function promptOfLine(line: string): string | null {
  const event = eventOf(line);
  return event !== null && event.type === 'user_message' && typeof event.message === 'string' ? event.message : null;
}

function codexTurns(home: string, _cwd: string, id: string): StoredTurns {
  const file = isValidId(id) ? findRollout(home, id) : null;
  if (file === null) return { kind: 'none', why: `no codex rollout for ${id} under ${home}` };
  const read = readTextFile(file);
  if (read.kind !== 'text') return { kind: 'none', why: `${file} cannot be read` };
  const entries: Array<{ role: 'user' | 'assistant'; text: string }> = [];
  for (const line of read.text.split('\n')) {
    const event = eventOf(line);
    if (event === null) continue;
    if (event.type === 'user_message' && typeof event.message === 'string') entries.push({ role: 'user', text: event.message });
    else if (event.type === 'agent_message' && typeof event.message === 'string') entries.push({ role: 'assistant', text: event.message });
    // The turn's own word for its reply, when it gives one.
    else if (event.type === 'task_complete' && typeof event.last_agent_message === 'string') entries.push({ role: 'assistant', text: event.last_agent_message });
  }
  return { kind: 'read', file, turns: turnsOf(entries) };
}

export const codexConversing: Conversing = {
  bracketedPaste: true,
  // Its paste burst takes an Enter within ~120 ms of text as a newline (AoE waits 150 ms).
  enterDelayMs: 200,
  confirms: 'store',
  replySignal: 'notify last-assistant-message',
  whileBusy: 'steers',
  turnOf: codexTurnOf,
  composer: composerLine({ prefix: /›\s?/, placeholders: ['Ask Codex to do anything'], dialogs: ['Would you like to run the following command?', 'Press enter to confirm'] }),
  promptFile: (home, _cwd, id) => (isValidId(id) ? findRollout(home, id) : null),
  promptOfLine,
  storedTurns: codexTurns,
};
