// qwen-code's conversation facts (0.24.4): raw mode, bracketed paste, Enter at any delay; a
// message sent while it works steers into the turn under way (one Stop for both, and no
// UserPromptSubmit for it). fleetcom's hooks (hooks.ts) carry the prompt (UserPromptSubmit
// `prompt`, the exact text) and the reply (Stop `last_assistant_message`); its transcript is the
// store (`message.parts[].text`, the reply's role `model`). Its composer is gemini's.
import { composerLine, turnsOf, type Conversing, type StoredTurns } from '../conversing.js';
import { readTextFile } from '../fs-read.js';
import { isValidId } from '../ids.js';
import { isJsonObject, jsonObjectOf } from '../json-shape.js';
import { qwenTurnOf } from './signal.js';
import { qwenTranscript } from './store.js';

/**
 * A transcript line's role and text, or null. A message steered into a running turn
 * (`subtype: "mid_turn_user_message"`, measured) is answered in that turn: no turn of its own.
 */
function entryOf(line: string): { role: 'user' | 'assistant'; text: string } | null {
  const record = jsonObjectOf(line);
  if (record?.subtype === 'mid_turn_user_message') return null;
  const message = record?.message;
  if (!isJsonObject(message) || !Array.isArray(message.parts)) return null;
  const text = message.parts.flatMap((p) => (isJsonObject(p) && typeof p.text === 'string' && p.thought !== true ? [p.text] : [])).join('');
  if (text === '') return null;
  if (message.role === 'user' && record?.type === 'user') return { role: 'user', text };
  return message.role === 'model' || message.role === 'assistant' ? { role: 'assistant', text } : null;
}

function qwenTurns(home: string, cwd: string, id: string): StoredTurns {
  if (!isValidId(id)) return { kind: 'none', why: `${id} is not a qwen session id` };
  const file = qwenTranscript(home, cwd, id);
  const read = readTextFile(file);
  if (read.kind !== 'text') return { kind: 'none', why: read.kind === 'missing' ? `no qwen transcript ${file}` : `${file} cannot be read` };
  return { kind: 'read', file, turns: turnsOf(read.text.split('\n').map(entryOf).filter((e) => e !== null)) };
}

export const qwenConversing: Conversing = {
  bracketedPaste: true,
  enterDelayMs: 100,
  confirms: 'event',
  replySignal: 'Stop hook last_assistant_message',
  whileBusy: 'steers',
  turnOf: qwenTurnOf,
  // `>` in every approval mode but YOLO's `*` (measured; its bundle: getApprovalModePromptStyle).
  // Its shell mode's `!` runs the text as a command: no composer to send to.
  composer: composerLine({ prefix: /[>*]\s?/, placeholders: ['Type your message'], dialogs: ['Allow execution of', 'Do you want to proceed?'] }),
  // A task launched without the hooks (a system-defaults file they would stand in for) is
  // confirmed by the user record its transcript gains, 20–1100 ms after the prompt (measured).
  promptFile: (home, cwd, id) => (isValidId(id) ? qwenTranscript(home, cwd, id) : null),
  promptOfLine: (line) => {
    const entry = entryOf(line);
    return entry?.role === 'user' ? entry.text : null;
  },
  storedTurns: qwenTurns,
};
