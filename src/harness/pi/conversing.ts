// pi's conversation facts, measured on 1.6.0 (/work/wt/send-measurements.md): raw mode, bracketed
// paste, the alternate screen; a paste one message, Enter at any delay; the composer bare rows
// between two rules. A message sent while it works steers the run under way (its `input` at
// once, one `agent_settled` for both). fleetcom's extension writes the text of each `input` it
// sees and, at `agent_settled`, the last assistant text of the `agent_end` before it; the
// session file is the store, a tree of `message` records (`id`, `parentId`) whose current
// branch ends at the last record.
import { composerBetweenRules, contentText, textField, turnsOf, type Conversing, type StoredTurns, type TurnMark } from '../conversing.js';
import { readTextFile } from '../fs-read.js';
import { isValidId } from '../ids.js';
import { isJsonObject, jsonObjectOf, type JsonObject } from '../json-shape.js';

function piTurnOf(payload: unknown): TurnMark | null {
  const type = textField(payload, 'type');
  const sessionId = textField(payload, 'sessionId');
  if (sessionId === null || !isValidId(sessionId)) return null;
  if (type === 'input') return { kind: 'start', sessionId, prompt: textField(payload, 'text'), joins: true };
  if (type === 'agent_start') return { kind: 'start', sessionId, prompt: null };
  if (type === 'agent_settled') return { kind: 'end', sessionId, reply: textField(payload, 'reply') };
  return null;
}

/**
 * The records of the branch the session is on: from the last record back through `parentId`;
 * records without ids (an older writer) are taken in file order.
 */
function currentBranch(records: JsonObject[]): JsonObject[] {
  const byId = new Map(records.flatMap((r) => (typeof r.id === 'string' ? [[r.id, r] as const] : [])));
  const last = records.at(-1);
  if (last === undefined || typeof last.id !== 'string' || !('parentId' in last)) return records;
  const branch: JsonObject[] = [];
  const seen = new Set<string>();
  for (let r: JsonObject | undefined = last; r !== undefined && typeof r.id === 'string' && !seen.has(r.id); ) {
    seen.add(r.id);
    branch.unshift(r);
    r = typeof r.parentId === 'string' ? byId.get(r.parentId) : undefined;
  }
  // A chain that ends before the file's first message record is not a tree: file order.
  return branch.length > 1 || records.length === 1 ? branch : records;
}

/** pi's store (pi.ts's piSessionFiles, handed in: it imports this file). */
type SessionFiles = (home: string, cwd: string, id: string) => string[];

function piTurns(sessionFiles: SessionFiles, home: string, cwd: string, id: string): StoredTurns {
  const file = sessionFiles(home, cwd, id).at(-1);
  if (file === undefined) return { kind: 'none', why: `no pi session file of ${id} for ${cwd}` };
  const read = readTextFile(file);
  if (read.kind !== 'text') return { kind: 'none', why: `${file} cannot be read` };
  const messages = read.text.split('\n').map(jsonObjectOf).filter((r): r is JsonObject => r !== null && r.type === 'message' && isJsonObject(r.message));
  const entries = currentBranch(messages).flatMap((r) => {
    const message = r.message as JsonObject;
    const text = contentText(message.content);
    return text !== null && (message.role === 'user' || message.role === 'assistant') ? [{ role: message.role, text } as const] : [];
  });
  return { kind: 'read', file, turns: turnsOf(entries) };
}

export const piConversing = (sessionFiles: SessionFiles): Conversing => ({
  bracketedPaste: true,
  enterDelayMs: 100,
  confirms: 'event',
  replySignal: 'extension agent_settled (the last assistant text of agent_end)',
  whileBusy: 'steers',
  turnOf: piTurnOf,
  composer: composerBetweenRules({}),
  storedTurns: (home, cwd, id) => piTurns(sessionFiles, home, cwd, id),
});
