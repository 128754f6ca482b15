import * as path from 'node:path';
import type { HistoryFile, HistoryRead, HistoryReader, HistoryScope, HistorySkip } from '../history.js';
import { readHeadTail, searchJsonLines, textsOfContent } from '../history-read.js';
import { idNamedTranscripts } from '../history-files.js';
import { listDir } from '../fs-read.js';
import { isJsonObject, jsonObjectOf, type JsonObject } from '../json-shape.js';
import { qwenProjectDir } from './store.js';

// qwen's conversations for `history`: `<home>/projects/<slug>/chats/<id>.jsonl`, one
// conversation a file, its directory in every record's `cwd` (a subagent's transcripts live in
// `<project>/subagents/`, never listed). The title is qwen's own `custom_title` record (a
// `system` record, written again near the end as the transcript grows), else the first prompt.

/** Bytes read at each end of a transcript. */
const HEAD = 64 * 1024;
const TAIL = 64 * 1024;

function chatsDirs(home: string, scope: HistoryScope): string[] {
  if (scope.kind === 'dirs') return [...new Set(scope.dirs.map((dir) => path.join(qwenProjectDir(home, dir), 'chats')))];
  const projects = path.join(home, 'projects');
  return listDir(projects).filter((entry) => entry.isDirectory()).map((entry) => path.join(projects, entry.name, 'chats'));
}

function files(home: string, scope: HistoryScope): { files: HistoryFile[]; skipped: HistorySkip[] } {
  return idNamedTranscripts(chatsDirs(home, scope));
}

/** The texts of a record's message parts. */
function textsOf(record: JsonObject): string[] {
  if (record.type !== 'user' && record.type !== 'assistant') return [];
  const message = record.message;
  return isJsonObject(message) ? textsOfContent(message.parts) : [];
}

/** What the person typed in a `user` record of this session, or null. */
function promptOf(record: JsonObject, id: string): string | null {
  if (record.type !== 'user' || record.sessionId !== id) return null;
  const text = textsOf(record).join('\n').trim();
  return text === '' ? null : text;
}

function titleOf(record: JsonObject): string | null {
  const payload = record.systemPayload;
  if (record.type !== 'system' || record.subtype !== 'custom_title' || !isJsonObject(payload)) return null;
  return typeof payload.customTitle === 'string' && payload.customTitle.trim() !== '' ? payload.customTitle : null;
}

function read(file: HistoryFile): HistoryRead {
  const id = path.basename(file.path, '.jsonl');
  const got = readHeadTail(file.path, HEAD, TAIL);
  if ('kind' in got) return { kind: 'skipped', why: got.kind === 'missing' ? 'it vanished' : got.reason };
  const records = [...got.head, ...got.tail].map(jsonObjectOf).filter((r): r is JsonObject => r !== null && r.sessionId === id);
  const cwd = records.map((r) => r.cwd).find((c): c is string => typeof c === 'string');
  if (cwd === undefined || !cwd.startsWith('/')) return { kind: 'skipped', why: 'no record of the session names its directory' };
  const prompts = got.head.map(jsonObjectOf).flatMap((r) => (r === null ? [] : [promptOf(r, id)])).filter((p): p is string => p !== null);
  // A transcript whose head holds no typed message: qwen cannot resume it, or it is not read far enough to tell.
  if (prompts.length === 0) return got.whole ? { kind: 'rows', rows: [] } : { kind: 'skipped', why: 'no typed message in its first 64 KiB' };
  const firstPrompt = prompts[0]!;
  const title = records.map(titleOf).filter((t): t is string => t !== null).at(-1) ?? firstPrompt;
  return { kind: 'rows', rows: [{ id, title, firstPrompt, updatedAt: file.mtimeMs, messages: got.whole ? prompts.length : null, cwd }] };
}

export const qwenHistory: HistoryReader = {
  files,
  read,
  search: (file, _home, needle) => searchJsonLines(file, path.basename(file.path, '.jsonl'), needle, textsOf),
};
