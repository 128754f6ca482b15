// claude's conversation facts, measured on 2.1.197 and 2.1.332 (/work/wt/send-measurements.md,
// summed up in docs/orchestration.md): raw mode and bracketed paste, a pasted text of any
// length (100 KiB, newlines) taken as one message at any Enter delay; a second Enter on an
// empty composer does nothing; a message sent while it works is queued (UserPromptSubmit at
// dequeue on 2.1.197, at queue time on 2.1.332). Hooks of fleetcom's settings overlay carry the
// prompt (UserPromptSubmit `prompt`, the exact text) and the reply (Stop
// `last_assistant_message`); its transcript is the store. Its messaging socket (2.1.332) is not
// used: the model is told that such a message comes from another session, not from its user.
import * as path from 'node:path';
import { composerLine, contentText, textField, turnsOf, type Conversing, type StoredTurns, type TurnMark } from '../conversing.js';
import { readTextFile } from '../fs-read.js';
import { isValidId } from '../ids.js';
import { isJsonObject, jsonObjectOf } from '../json-shape.js';
import { claudeProjectDirs, isTypedText } from './transcript.js';

/** A claude-shaped hook payload (claude's own, copilot's PascalCase hooks): its turn mark. */
export function claudeTurnOf(payload: unknown): TurnMark | null {
  const event = textField(payload, 'hook_event_name');
  const sessionId = textField(payload, 'session_id');
  if (sessionId === null || !isValidId(sessionId)) return null;
  // prompt_id ties a turn's Stop to its UserPromptSubmit (measured on 2.1.197 and 2.1.332).
  const promptId = textField(payload, 'prompt_id');
  const id = promptId === null || promptId === '' ? {} : { id: promptId.slice(0, 200) };
  if (event === 'UserPromptSubmit') return { kind: 'start', sessionId, prompt: textField(payload, 'prompt'), ...id };
  if (event === 'Stop') return { kind: 'end', sessionId, reply: textField(payload, 'last_assistant_message'), ...id };
  return null;
}

/** The composer: `❯ text` between two rules (`>` in older versions); a permission or question dialog has none. */
export const claudeComposer = composerLine({
  prefix: /[❯>]\s?/,
  // 2.1.197 shows the second while a message is queued behind a turn (measured).
  placeholders: ['Try "', 'Press up to edit queued messages'],
  dialogs: ['Do you want to proceed?', 'Enter to select', 'Would you like to proceed?', 'Exit plan mode?'],
});

/** Prompts the person typed and claude's text replies, in the transcript's order (subagents' sidechains left out). */
function claudeTurns(home: string, cwd: string, id: string): StoredTurns {
  if (!isValidId(id)) return { kind: 'none', why: `${id} is not a claude conversation id` };
  const files = claudeProjectDirs(home, cwd).map((dir) => path.join(dir, `${id}.jsonl`));
  for (const file of files) {
    const read = readTextFile(file);
    if (read.kind !== 'text') continue;
    const entries: Array<{ role: 'user' | 'assistant'; text: string }> = [];
    for (const line of read.text.split('\n')) {
      const record = jsonObjectOf(line);
      if (record === null || record.isSidechain === true || record.isMeta === true) continue;
      const message = record.message;
      if (!isJsonObject(message)) continue;
      const text = contentText(message.content);
      if (text === null) continue;
      if (record.type === 'user' && isTypedText(text)) entries.push({ role: 'user', text });
      else if (record.type === 'assistant') entries.push({ role: 'assistant', text });
    }
    return { kind: 'read', file, turns: turnsOf(entries) };
  }
  return { kind: 'none', why: `no claude transcript ${files[0] ?? id}` };
}

export const claudeConversing: Conversing = {
  bracketedPaste: true,
  // Measured: submitted at every delay after a paste, even in the same write (−1 to 500 ms, both
  // versions); a small margin all the same, and Enter again while the composer holds the text.
  enterDelayMs: 20,
  confirms: 'event',
  replySignal: 'Stop hook last_assistant_message',
  whileBusy: 'queued',
  turnOf: claudeTurnOf,
  composer: claudeComposer,
  storedTurns: claudeTurns,
};
