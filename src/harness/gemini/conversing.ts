// gemini's conversation facts, measured on 0.61.0 (/work/wt/send-measurements.md): raw mode and
// bracketed paste, a paste one message; an Enter within 40 ms of a paste is ignored (measured:
// not submitted at 50 ms, submitted from 60 ms) and one within 30 ms of a key is a newline; a
// message sent while it works is queued. Its BeforeAgent/AfterAgent hooks run only from an
// extension in the user's own gemini home, which fleetcom does not install, so a prompt is
// confirmed by the user record its session file gains and a reply read from there; its turns
// come from its terminal title. Its composer is ` > text`, `>   Type your message…` when empty.
import { composerLine, contentText, turnsOf, type Conversing, type StoredTurns } from '../conversing.js';
import { readTextFile } from '../fs-read.js';
import { isJsonObject, jsonObjectOf } from '../json-shape.js';

/** gemini's own first message of every session: the context it sets up, not the user's words. */
const SESSION_CONTEXT = '<session_context>';

/** A message record's role and text (`user`, `gemini`), or null for anything else. */
function entryOf(message: unknown): { role: 'user' | 'assistant'; text: string } | null {
  if (!isJsonObject(message)) return null;
  const text = contentText(message.content);
  if (text === null) return null;
  if (message.type === 'user') return text.trimStart().startsWith(SESSION_CONTEXT) ? null : { role: 'user', text };
  if (message.type === 'gemini') return { role: 'assistant', text };
  return null;
}

/** The entries of one line: a message record, or a `$set` of messages. */
function entriesOf(line: string): Array<{ role: 'user' | 'assistant'; text: string }> {
  const record = jsonObjectOf(line);
  if (record === null) return [];
  const set = record.$set;
  const messages = isJsonObject(set) && Array.isArray(set.messages) ? set.messages : [record];
  return messages.map(entryOf).filter((e) => e !== null);
}

/** The session files of one conversation (gemini.ts's geminiSessionFiles, handed in: it imports this file). */
type SessionFiles = (home: string, cwd: string, id: string) => string[];

function geminiTurns(sessionFiles: SessionFiles, home: string, cwd: string, id: string): StoredTurns {
  const files = sessionFiles(home, cwd, id);
  const entries: Array<{ role: 'user' | 'assistant'; text: string }> = [];
  for (const file of files) {
    const read = readTextFile(file);
    if (read.kind === 'text') for (const line of read.text.split('\n')) entries.push(...entriesOf(line));
  }
  const last = files.at(-1);
  return last === undefined ? { kind: 'none', why: `no gemini session file of ${id} for ${cwd}` } : { kind: 'read', file: last, turns: turnsOf(entries) };
}

export const geminiConversing = (sessionFiles: SessionFiles): Conversing => ({
  bracketedPaste: true,
  // 40 ms after a paste, Enter is ignored (60 ms submitted); the margin covers a loaded machine.
  enterDelayMs: 150,
  confirms: 'store',
  replySignal: null,
  whileBusy: 'queued',
  turnOf: () => null,
  composer: composerLine({ prefix: />\s?/, placeholders: ['Type your message'], dialogs: ['Allow execution of', 'Apply this change?', 'Do you want to proceed?'] }),
  promptFile: (home, cwd, id) => sessionFiles(home, cwd, id).at(-1) ?? null,
  promptOfLine: (line) => entriesOf(line).find((e) => e.role === 'user')?.text ?? null,
  storedTurns: (home, cwd, id) => geminiTurns(sessionFiles, home, cwd, id),
});
