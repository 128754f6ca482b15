import * as path from 'node:path';
import { entryPath, listDir } from '../fs-read.js';
import type { HistoryFile, HistoryReader, HistoryScope, HistorySkip } from '../history.js';
import { oneConversationRow } from '../history-entry.js';
import { historyFileOf, readHeadTail, searchJsonLines, textsOfContent } from '../history-read.js';
import { isValidId } from '../ids.js';
import { isJsonObject, jsonObjectOf, type JsonObject } from '../json-shape.js';
import { piProjectDir } from './project-dir.js';

// pi's conversations for `history`: `<home>/sessions/--<cwd>--/<time>_<id>.jsonl`, one
// conversation a file, its first line the header naming the id and the cwd. Its title is the
// last `session_info` name (`/name`), else the first prompt. Head and tail are read, never
// the middle.

const HEAD = 64 * 1024;
const TAIL = 64 * 1024;
const FILE = /^.+_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/;

function projectDirs(home: string, scope: HistoryScope): string[] {
  const sessions = path.join(home, 'sessions');
  if (scope.kind === 'dirs') return [...new Set(scope.dirs.map((dir) => path.join(sessions, piProjectDir(dir))))];
  return listDir(sessions).filter((entry) => entry.isDirectory()).map((entry) => path.join(sessions, entry.name));
}

function files(home: string, scope: HistoryScope): { files: HistoryFile[]; skipped: HistorySkip[] } {
  const found: HistoryFile[] = [];
  const skipped: HistorySkip[] = [];
  for (const dir of projectDirs(home, scope)) {
    for (const entry of listDir(dir)) {
      if (!FILE.test(entry.name)) continue;
      const file = historyFileOf(entryPath(dir, entry.name));
      if ('why' in file) skipped.push({ path: entryPath(dir, entry.name), why: file.why });
      else found.push(file);
    }
  }
  return { files: found, skipped };
}

/** The message of a `message` record with this role, else null. */
function messageOf(record: JsonObject, role: string): JsonObject | null {
  return record.type === 'message' && isJsonObject(record.message) && record.message.role === role ? record.message : null;
}

function read(file: HistoryFile): ReturnType<HistoryReader['read']> {
  const id = FILE.exec(path.basename(file.path))?.[1];
  if (id === undefined || !isValidId(id)) return { kind: 'skipped', why: 'not a pi session file name' };
  const got = readHeadTail(file.path, HEAD, TAIL);
  if ('kind' in got) return { kind: 'skipped', why: got.kind === 'missing' ? 'it vanished' : got.reason };
  const header = jsonObjectOf(got.head[0] ?? '');
  if (header === null || header.type !== 'session' || header.id !== id) return { kind: 'skipped', why: 'its first line is not the header of this session' };
  if (typeof header.cwd !== 'string' || !header.cwd.startsWith('/')) return { kind: 'skipped', why: 'its header names no directory' };
  let name: string | null = null;
  let firstPrompt: string | null = null;
  let turns = 0;
  for (const line of [...got.head.slice(1), ...got.tail]) {
    const record = jsonObjectOf(line);
    if (record === null) continue;
    if (record.type === 'session_info' && typeof record.name === 'string') name = record.name.trim() === '' ? null : record.name;
    const user = messageOf(record, 'user');
    if (user === null) continue;
    turns += 1;
    firstPrompt ??= textsOfContent(user.content).join(' ').trim();
  }
  // pi writes the file at the first message: one whose head holds none is not a conversation.
  return oneConversationRow(file, got.whole, { id, title: name, firstPrompt, turns, cwd: header.cwd });
}

function textsOf(record: JsonObject): string[] {
  const message = messageOf(record, 'user') ?? messageOf(record, 'assistant');
  return message === null ? [] : textsOfContent(message.content);
}

export const piHistory: HistoryReader = {
  files,
  read,
  search: (file, _home, needle) => searchJsonLines(file, FILE.exec(path.basename(file.path))?.[1] ?? '', needle, textsOf),
};
