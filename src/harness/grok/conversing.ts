// grok's conversation facts (a fake only: no grok with sessions runs offline here): no signal
// says it took a message, so a send to it is `unconfirmed`; its session directory's
// messages.jsonl is read for replies.
import * as path from 'node:path';
import { composerLine, turnsOf, type Conversing, type StoredTurns } from '../conversing.js';
import { readTextFile } from '../fs-read.js';
import { isValidId } from '../ids.js';
import { jsonObjectOf } from '../json-shape.js';
import { grokEncodeCwd } from './store.js';

function grokTurns(home: string, cwd: string, id: string): StoredTurns {
  if (!isValidId(id)) return { kind: 'none', why: `${id} is not a grok session id` };
  const file = path.join(home, 'sessions', grokEncodeCwd(cwd), id, 'messages.jsonl');
  const read = readTextFile(file);
  if (read.kind !== 'text') return { kind: 'none', why: read.kind === 'missing' ? `no grok messages ${file}` : `${file} cannot be read` };
  const entries = read.text.split('\n').flatMap((line) => {
    const record = jsonObjectOf(line);
    const role = record?.role;
    return record !== null && typeof record.content === 'string' && (role === 'user' || role === 'assistant') ? [{ role, text: record.content } as const] : [];
  });
  return { kind: 'read', file, turns: turnsOf(entries) };
}

export const grokConversing: Conversing = {
  bracketedPaste: true,
  enterDelayMs: 100,
  confirms: 'none',
  replySignal: null,
  whileBusy: 'unknown',
  turnOf: () => null,
  composer: composerLine({ prefix: /grok>\s?/ }),
  storedTurns: grokTurns,
};
