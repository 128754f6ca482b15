import * as path from 'node:path';
import { listDir } from '../fs-read.js';
import type { HistoryFile, HistoryReader, HistorySkip } from '../history.js';
import { oneConversationRow } from '../history-entry.js';
import { historyFileOf, readHeadTail, searchJsonLines, textsOfContent } from '../history-read.js';
import { isValidId } from '../ids.js';
import { isJsonObject, jsonObjectOf, type JsonObject } from '../json-shape.js';

// copilot's conversations for `history`: `<home>/session-state/<id>/events.jsonl`, one
// conversation a directory. The cwd is in its `session.start` record (the first), the typed
// messages are `user.message` records without an `agentId` (a subagent's prompt has one, as
// measured on 1.0.102). Which directory a session ran in is only known by reading it, so every
// session is listed (the scope is a hint; rows are filtered by cwd afterwards).

const HEAD = 64 * 1024;
const TAIL = 64 * 1024;

function files(home: string): { files: HistoryFile[]; skipped: HistorySkip[] } {
  const root = path.join(home, 'session-state');
  const found: HistoryFile[] = [];
  const skipped: HistorySkip[] = [];
  for (const entry of listDir(root)) {
    if (!entry.isDirectory() || !isValidId(entry.name)) continue;
    const events = path.join(root, entry.name, 'events.jsonl');
    const file = historyFileOf(events);
    // A session without events.jsonl never got a message: nothing to resume, nothing to say.
    if ('why' in file) {
      if (file.why !== 'ENOENT') skipped.push({ path: events, why: file.why });
    } else {
      found.push(file);
    }
  }
  return { files: found, skipped };
}

/** The text the person typed, when the record is one of their messages (not a subagent's). */
function promptOf(record: JsonObject): string | null {
  if (record.type !== 'user.message' || record.agentId !== undefined || !isJsonObject(record.data)) return null;
  return textsOfContent(record.data.content).join(' ').trim();
}

function read(file: HistoryFile): ReturnType<HistoryReader['read']> {
  const id = path.basename(path.dirname(file.path));
  if (!isValidId(id)) return { kind: 'skipped', why: 'not a copilot session directory' };
  const got = readHeadTail(file.path, HEAD, TAIL);
  if ('kind' in got) return { kind: 'skipped', why: got.kind === 'missing' ? 'it vanished' : got.reason };
  let cwd: string | null = null;
  let firstPrompt: string | null = null;
  let turns = 0;
  for (const line of [...got.head, ...got.tail]) {
    const record = jsonObjectOf(line);
    if (record === null) continue;
    if (cwd === null && record.type === 'session.start' && isJsonObject(record.data) && isJsonObject(record.data.context)) {
      const dir = record.data.context.cwd;
      if (typeof dir === 'string' && dir.startsWith('/')) cwd = dir;
    }
    const prompt = promptOf(record);
    if (prompt === null) continue;
    turns += 1;
    firstPrompt ??= prompt;
  }
  // No typed message in the whole file is no conversation, whatever names its directory.
  if (cwd === null && !(firstPrompt === null && got.whole)) return { kind: 'skipped', why: 'no session.start record names its directory' };
  return oneConversationRow(file, got.whole, { id, title: null, firstPrompt, turns, cwd: cwd ?? '' });
}

function textsOf(record: JsonObject): string[] {
  if ((record.type !== 'user.message' && record.type !== 'assistant.message') || !isJsonObject(record.data)) return [];
  return textsOfContent(record.data.content);
}

export const copilotHistory: HistoryReader = {
  files,
  read,
  search: (file, _home, needle) => searchJsonLines(file, path.basename(path.dirname(file.path)), needle, textsOf),
};
