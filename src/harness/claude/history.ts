import * as path from 'node:path';
import type { HistoryEntry, HistoryFile, HistoryReader, HistoryScope, HistorySkip } from '../history.js';
import { readHeadTail, searchJsonLines, textsOfContent } from '../history-read.js';
import { idNamedTranscripts } from '../history-files.js';
import { listDir } from '../fs-read.js';
import { isJsonObject, jsonObjectOf, type JsonObject } from '../json-shape.js';
import { claudeProjectDirs, isTypedText, isUserRecordValue } from './transcript.js';

// claude's conversations for `history`: `<home>/projects/<slug>/<id>.jsonl` (a subagent's
// transcripts live a level down, `<id>/subagents/`, and are never listed). Like claude's own
// picker, only the head and the tail of a transcript are read: claude appends its title
// records (`custom-title`, `ai-title`) again near the end, so the last one is in the tail.

/** Bytes read at each end of a transcript (claude's own picker reads 64 KiB). */
const HEAD = 64 * 1024;
const TAIL = 64 * 1024;

/** A line that may be a user record or a title record (JSON may put spaces after the colon). */
const MATTERS = /"type"\s*:\s*"(user|custom-title|ai-title|summary)"/;

function projectDirs(home: string, scope: HistoryScope): string[] {
  if (scope.kind === 'dirs') return [...new Set(scope.dirs.flatMap((dir) => claudeProjectDirs(home, dir)))];
  const projects = path.join(home, 'projects');
  return listDir(projects).filter((entry) => entry.isDirectory()).map((entry) => path.join(projects, entry.name));
}

function files(home: string, scope: HistoryScope): { files: HistoryFile[]; skipped: HistorySkip[] } {
  return idNamedTranscripts(projectDirs(home, scope));
}

/** What the person typed in a user record, or null (a tool result, claude's meta, a local command). */
function promptOf(record: JsonObject): string | null {
  if (record.type !== 'user' || !isUserRecordValue(record)) return null;
  const message = record.message;
  const text = textsOfContent(isJsonObject(message) ? message.content : undefined).filter(isTypedText).join(' ').trim();
  return text === '' ? null : text;
}

function read(file: HistoryFile): ReturnType<HistoryReader['read']> {
  const id = path.basename(file.path, '.jsonl');
  const got = readHeadTail(file.path, HEAD, TAIL);
  if ('kind' in got) return { kind: 'skipped', why: got.kind === 'missing' ? 'it vanished' : got.reason };
  let custom: string | null = null;
  let ai: string | null = null;
  let summary: string | null = null;
  let firstPrompt: string | null = null;
  let cwd: string | null = null;
  let turns = 0;
  for (const line of got.tail.length === 0 ? got.head : got.head.concat(got.tail)) {
    // Most lines are the agent's replies and tool calls: only those that can matter are parsed.
    if (cwd !== null && !MATTERS.test(line)) continue;
    const record = jsonObjectOf(line);
    if (record === null) continue;
    if (cwd === null && typeof record.cwd === 'string' && record.cwd.startsWith('/')) cwd = record.cwd;
    if (record.type === 'custom-title' && typeof record.customTitle === 'string' && record.customTitle.trim() !== '') custom = record.customTitle;
    else if (record.type === 'ai-title' && typeof record.aiTitle === 'string' && record.aiTitle.trim() !== '') ai = record.aiTitle;
    else if (record.type === 'summary' && typeof record.summary === 'string' && record.summary.trim() !== '') summary = record.summary;
    const prompt = promptOf(record);
    if (prompt !== null) {
      turns += 1;
      firstPrompt ??= prompt;
    }
  }
  // No typed message in the head: claude refuses to resume a transcript without one, and a
  // long one always has its first prompt near the top.
  if (firstPrompt === null && got.whole) return { kind: 'rows', rows: [] };
  if (cwd === null) return { kind: 'skipped', why: 'no record names its directory' };
  const entry: HistoryEntry = {
    id,
    title: custom ?? ai ?? summary ?? firstPrompt ?? '',
    firstPrompt: firstPrompt ?? '',
    updatedAt: file.mtimeMs,
    messages: got.whole ? turns : null,
    cwd,
  };
  return { kind: 'rows', rows: [entry] };
}

function textsOf(record: JsonObject): string[] {
  if (record.type !== 'user' && record.type !== 'assistant') return [];
  const message = record.message;
  return textsOfContent(isJsonObject(message) ? message.content : undefined);
}

export const claudeHistory: HistoryReader = {
  files,
  read,
  search: (file, _home, needle) => searchJsonLines(file, path.basename(file.path, '.jsonl'), needle, textsOf),
};
