// copilot's conversation facts, measured on 1.0.102 (/work/wt/send-measurements.md): raw mode,
// bracketed paste, the alternate screen; the composer `❯ text` between two rules; Enter at any
// delay; a message sent while it works is queued (its hooks fire at dequeue). A paste of 32 KiB
// or more is saved to a file and the prompt becomes a reference to it (16 KiB arrived whole).
// Its PascalCase hooks are claude's, so UserPromptSubmit carries the prompt; its Stop carries no
// reply, which its session's events.jsonl holds (`assistant.message` records; those asking for
// tools are steps, not replies).
import * as path from 'node:path';
import { claudeTurnOf } from '../claude/conversing.js';
import { composerLine, turnsOf, type Conversing, type StoredTurns } from '../conversing.js';
import { readTextFile } from '../fs-read.js';
import { isValidId } from '../ids.js';
import { isJsonObject, jsonObjectOf } from '../json-shape.js';

type Entry = { role: 'user' | 'assistant'; text: string };

function copilotTurns(home: string, _cwd: string, id: string): StoredTurns {
  if (!isValidId(id)) return { kind: 'none', why: `${id} is not a copilot session id` };
  const file = path.join(home, 'session-state', id, 'events.jsonl');
  const read = readTextFile(file);
  if (read.kind !== 'text') return { kind: 'none', why: read.kind === 'missing' ? `no copilot session events ${file}` : `${file} cannot be read` };
  const entries = read.text.split('\n').flatMap((line): Entry[] => {
    const record = jsonObjectOf(line);
    const data = record?.data;
    if (record === null || !isJsonObject(data) || typeof data.content !== 'string') return [];
    if (record.type === 'user.message') return [{ role: 'user', text: data.content }];
    const steps = Array.isArray(data.toolRequests) && data.toolRequests.length > 0;
    return record.type === 'assistant.message' && !steps && data.content.trim() !== '' ? [{ role: 'assistant', text: data.content }] : [];
  });
  return { kind: 'read', file, turns: turnsOf(entries) };
}

export const copilotConversing: Conversing = {
  bracketedPaste: true,
  enterDelayMs: 100,
  confirms: 'event',
  replySignal: null,
  whileBusy: 'queued',
  largest: { bytes: 16 * 1024, why: 'copilot 1.0.102 saves a paste of 32 KiB or more to a file and gives the model a reference to it, not the text (16 KiB arrived whole)' },
  turnOf: claudeTurnOf,
  composer: composerLine({ prefix: /❯\s?/, dialogs: ['Do you trust the files in this folder?', 'Do you want to run this command?'] }),
  storedTurns: copilotTurns,
};
