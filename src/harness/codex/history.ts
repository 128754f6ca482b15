import * as path from 'node:path';
import type { HistoryFile, HistoryRead, HistoryReader, HistorySkip } from '../history.js';
import { historyFileOf, readHeadTail, searchJsonLines, textsOfContent } from '../history-read.js';
import { isJsonObject, jsonObjectOf, type JsonObject } from '../json-shape.js';
import { everyDateFolder, firstRecordOf, rolloutsIn, sessionMeta, threadKind } from './rollouts.js';

// codex's conversations for `history`: every rollout under `<home>/sessions/YYYY/MM/DD/`, its
// directory from the first record (`session_meta`), never a subagent's thread; the title from
// `<home>/session_index.jsonl` (`{id, thread_name, updated_at}`, appended, the newest line
// wins), else the first user message (what `codex resume`'s picker shows).

/** The head read of a rollout: its first record (~22 KB of base instructions) and the first messages. */
const HEAD = 128 * 1024;
/** The most of session_index.jsonl read: its newest lines (it only grows). */
const INDEX_MAX = 16 * 1024 * 1024;

function files(home: string): { files: HistoryFile[]; skipped: HistorySkip[] } {
  const found: HistoryFile[] = [];
  const skipped: HistorySkip[] = [];
  for (const rollout of rolloutsIn(home, everyDateFolder(path.join(home, 'sessions')))) {
    const file = historyFileOf(rollout.file);
    if ('why' in file) skipped.push({ path: rollout.file, why: file.why });
    else found.push(file);
  }
  // A rollout link (never followed) is not a file to rolloutsIn: it lists regular files only.
  return { files: found, skipped };
}

/**
 * The user's message a record holds, or null. Measured on 0.171.0: a `response_item` message
 * of role `user` with `input_text` parts — among them codex's own context blocks
 * (`<environment_context>…`, `# AGENTS.md instructions…`), which are not the user's words;
 * older rollouts (and fleetcom's fake) also carry an `event_msg` of type `user_message`.
 */
function userMessage(record: JsonObject): string | null {
  const payload = record.payload;
  if (!isJsonObject(payload)) return null;
  if (record.type === 'event_msg' && payload.type === 'user_message') return typeof payload.message === 'string' && payload.message.trim() !== '' ? payload.message : null;
  if (record.type !== 'response_item' || payload.type !== 'message' || payload.role !== 'user') return null;
  const text = textsOfContent(payload.content).join('\n').trim();
  return text === '' || isContextBlock(text) ? null : text;
}

const isContextBlock = (text: string) => /^<[a-z_]+>/.test(text) || text.startsWith('# AGENTS.md instructions');

/** A line that may hold a user's message (only those are parsed). */
const mayHoldPrompt = (line: string) => line.includes('"user_message"') || /"role"\s*:\s*"user"/.test(line);

function read(file: HistoryFile): HistoryRead {
  const id = path.basename(file.path, '.jsonl').slice(-36);
  const got = readHeadTail(file.path, HEAD, 0);
  if ('kind' in got) return { kind: 'skipped', why: got.kind === 'missing' ? 'it vanished' : got.reason };
  const [first] = got.head;
  // A first record longer than the head: read it alone, bounded (rollouts.ts).
  const meta = (first === undefined ? null : payloadOf(firstRecordOf(first))) ?? sessionMeta(file.path);
  const kind = threadKind(meta);
  if (kind.kind === 'child') return { kind: 'rows', rows: [] };
  if (kind.kind === 'unknown' || meta === null) return { kind: 'skipped', why: kind.kind === 'unknown' ? kind.why : 'no session_meta' };
  if (typeof meta.cwd !== 'string' || !meta.cwd.startsWith('/')) return { kind: 'skipped', why: 'its session_meta names no directory' };
  // Only the user's messages are parsed: the first record and the agent's replies are the bulk.
  const records = got.head.slice(1).filter(mayHoldPrompt).map(jsonObjectOf).filter((r): r is JsonObject => r !== null);
  // A rollout that has `user_message` events (older codex) has each message twice: count those.
  const events = records.filter((r) => r.type === 'event_msg');
  const prompts = (events.length > 0 ? events : records).map(userMessage).filter((m): m is string => m !== null);
  const firstPrompt = prompts[0] ?? '';
  // codex writes the rollout at the first message; one without any is not resumable.
  if (got.whole && prompts.length === 0) return { kind: 'rows', rows: [] };
  return {
    kind: 'rows',
    rows: [{ id, title: firstPrompt, firstPrompt, updatedAt: file.mtimeMs, messages: got.whole ? prompts.length : null, cwd: meta.cwd }],
  };
}

function payloadOf(record: JsonObject | null): JsonObject | null {
  return record !== null && record.type === 'session_meta' && isJsonObject(record.payload) ? record.payload : null;
}

/** The newest `thread_name` of each id in session_index.jsonl (a later line wins). */
function titles(home: string): ReadonlyMap<string, string> {
  const found = new Map<string, string>();
  const got = readHeadTail(path.join(home, 'session_index.jsonl'), 0, INDEX_MAX);
  if ('kind' in got) return found;
  for (const line of got.whole ? got.head : got.tail) {
    const record = jsonObjectOf(line);
    if (record === null || typeof record.id !== 'string' || typeof record.thread_name !== 'string') continue;
    if (record.thread_name.trim() !== '') found.set(record.id, record.thread_name);
  }
  return found;
}

function textsOf(record: JsonObject): string[] {
  const payload = record.payload;
  if (!isJsonObject(payload)) return [];
  if (record.type === 'event_msg') {
    if (payload.type !== 'user_message' && payload.type !== 'agent_message') return [];
    return typeof payload.message === 'string' ? [payload.message] : [];
  }
  if (record.type !== 'response_item' || payload.type !== 'message') return [];
  if (payload.role === 'assistant') return textsOfContent(payload.content);
  const own = payload.role === 'user' ? userMessage(record) : null;
  return own === null ? [] : [own];
}

export const codexHistory: HistoryReader = {
  files,
  read,
  titles,
  search: (file, _home, needle) => searchJsonLines(file, path.basename(file.path, '.jsonl').slice(-36), needle, textsOf),
};
