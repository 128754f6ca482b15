// opencode's (and Kilo's) conversation facts, measured on opencode 1.18.33 and Kilo 7.7.7
// (/work/wt/send-measurements.md): raw mode, bracketed paste, the alternate screen; a paste of any
// size one message, Enter at any delay; the composer a box of `┃` rows (no prompt character,
// an empty one blank rows). A message sent while it works is queued and answered in the same
// busy span, one `session.idle` for both; its text reaches plugins at once. fleetcom's plugin
// writes a `prompt` line with a user message's text and the reply with `session.idle` (from
// the message events opencode sends its plugins); the database's `message` and `part` tables
// are the store (`data` a JSON text, the role on the message, the text on its parts). Its HTTP
// server takes a prompt well (prompt_async) but listens only when the launch names `--port`.
import { composerLine, textField, turnsOf, type Conversing, type StoredTurns, type TurnMark } from '../conversing.js';
import { jsonObjectOf } from '../json-shape.js';
import { readSqliteTable, type SqlValue } from '../sqlite-read.js';

const ID = /^ses_[0-9A-Za-z]{26}$/;

function opencodeTurnOf(payload: unknown): TurnMark | null {
  const type = textField(payload, 'type');
  const sessionId = textField(payload, 'sessionID');
  if (sessionId === null || !ID.test(sessionId)) return null;
  if (type === 'prompt') return { kind: 'start', sessionId, prompt: textField(payload, 'text'), joins: true };
  if (type === 'session.status' && textField(payload, 'status') === 'busy') return { kind: 'start', sessionId, prompt: null };
  if (type === 'session.idle') return { kind: 'end', sessionId, reply: textField(payload, 'reply') };
  return null;
}

interface Row {
  id: string;
  session: string | null;
  message: string | null;
  created: number;
  data: Record<string, unknown> | null;
}

/** A table's rows with the columns the turns need, or why they cannot be read. */
function rowsOf(db: string, table: 'message' | 'part'): Row[] | string {
  const read = readSqliteTable(db, table);
  if (read.kind === 'missing') return `${db} is missing`;
  if (read.kind === 'unreadable') return `${db}: ${read.reason}`;
  const at = (name: string) => read.columns.indexOf(name);
  const [id, session, message, created, data] = [at('id'), at('session_id'), at('message_id'), at('time_created'), at('data')];
  if ([id, session, created, data].includes(-1)) return `${db}: its ${table} table lacks id, session_id, time_created or data`;
  const text = (v: SqlValue | undefined) => (typeof v === 'string' ? v : null);
  return read.rows.flatMap((row) => {
    const rowId = text(row[id]);
    const time = row[created];
    const json = text(row[data]);
    return rowId === null ? [] : [{ id: rowId, session: text(row[session]), message: message === -1 ? null : text(row[message]), created: typeof time === 'number' ? time : 0, data: json === null ? null : jsonObjectOf(json) }];
  });
}

function opencodeTurns(db: string, _cwd: string, id: string): StoredTurns {
  if (!ID.test(id)) return { kind: 'none', why: `${id} is not an opencode session id` };
  const messages = rowsOf(db, 'message');
  if (typeof messages === 'string') return { kind: 'none', why: messages };
  const parts = rowsOf(db, 'part');
  if (typeof parts === 'string') return { kind: 'none', why: parts };
  const textOf = new Map<string, string[]>();
  for (const part of parts.filter((p) => p.session === id).sort((a, b) => a.created - b.created || a.id.localeCompare(b.id))) {
    if (part.message === null || part.data?.type !== 'text' || typeof part.data.text !== 'string' || part.data.synthetic === true) continue;
    textOf.set(part.message, [...(textOf.get(part.message) ?? []), part.data.text]);
  }
  const entries = messages
    .filter((m) => m.session === id)
    .sort((a, b) => a.created - b.created || a.id.localeCompare(b.id))
    .flatMap((m) => {
      const role = m.data?.role;
      const text = textOf.get(m.id)?.join('');
      return text !== undefined && (role === 'user' || role === 'assistant') ? [{ role, text } as const] : [];
    });
  return { kind: 'read', file: db, turns: turnsOf(entries) };
}

export const opencodeConversing: Conversing = {
  bracketedPaste: true,
  enterDelayMs: 100,
  confirms: 'event',
  replySignal: 'plugin session.idle (the last assistant message of message.part.updated)',
  whileBusy: 'queued',
  turnOf: opencodeTurnOf,
  // The box stands in the middle of the home screen until the first message (opencode 1.18.33,
  // Kilo 7.7.7 at 160x48: 20 rows above the bottom), its lowest row the agent and model
  // (`Build · mock-model fleetcom mock`, Kilo's `Code  · …`): test/fixtures/composers/.
  composer: composerLine({
    prefix: /┃/, placeholders: ['Ask anything'], dialogs: ['Permission required'], block: true, queued: /^QUEUED$/, within: 200, skip: /^\S+\s+·\s/,
  }),
  storedTurns: opencodeTurns,
};
