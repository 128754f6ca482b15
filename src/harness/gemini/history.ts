import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { HistoryFile, HistoryRead, HistoryReader, HistoryScope, HistorySkip } from '../history.js';
import { historyFileOf, readHeadTail, searchJsonLines, textsOfContent } from '../history-read.js';
import { entryPath, listDir, readFirstLine, readTextFile } from '../fs-read.js';
import { isValidId } from '../ids.js';
import { isJsonObject, jsonObjectOf, type JsonObject } from '../json-shape.js';

// gemini's conversations for `history`: `<home>/.gemini/tmp/<project>/chats/session-*.jsonl`,
// main sessions only (a subagent's live in `chats/<parent id>/`, never read); the directory
// from the project's `.project_root` (else `~/.gemini/projects.json`), checked against the
// `projectHash` of the first record; the title is the first user message, as gemini's
// `/resume` picker shows it.

const HEAD = 64 * 1024;
const TAIL = 64 * 1024;
/** gemini's own first message of every session: the context it sets up, not the user's words. */
const SESSION_CONTEXT = '<session_context>';

function files(home: string, _scope: HistoryScope): { files: HistoryFile[]; skipped: HistorySkip[] } {
  const found: HistoryFile[] = [];
  const skipped: HistorySkip[] = [];
  const tmp = path.join(home, '.gemini', 'tmp');
  for (const project of listDir(tmp)) {
    if (!project.isDirectory()) continue;
    const chats = path.join(tmp, project.name, 'chats');
    for (const entry of listDir(chats)) {
      if (!entry.name.startsWith('session-') || !entry.name.endsWith('.jsonl')) continue;
      const file = historyFileOf(entryPath(chats, entry.name));
      if ('why' in file) skipped.push({ path: entryPath(chats, entry.name), why: file.why });
      else found.push(file);
    }
  }
  return { files: found, skipped };
}

const hashOf = (cwd: string) => createHash('sha256').update(cwd).digest('hex');

/** The project's directory: its `.project_root`, else the projects.json entry naming its folder. */
function projectRoot(home: string, project: string): string | null {
  const root = readFirstLine(path.join(home, '.gemini', 'tmp', project, '.project_root'), 4096)?.trim();
  if (root !== undefined && root.startsWith('/')) return root;
  const map = readTextFile(path.join(home, '.gemini', 'projects.json'));
  const value = map.kind === 'text' ? jsonObjectOf(map.text) : null;
  const projects = value !== null && isJsonObject(value.projects) ? value.projects : value;
  for (const [cwd, name] of Object.entries(projects ?? {})) if (name === project && cwd.startsWith('/')) return cwd;
  return null;
}

function userTexts(message: unknown): string[] {
  if (!isJsonObject(message) || message.type !== 'user') return [];
  return textsOfContent(message.content).filter((text) => text.trim() !== '' && !text.trimStart().startsWith(SESSION_CONTEXT));
}

/** The user messages a line holds: a message record, or a `$set` of messages. */
function promptsOf(record: JsonObject): string[] {
  const set = record.$set;
  if (isJsonObject(set) && Array.isArray(set.messages)) return set.messages.flatMap((m: unknown) => userTexts(m).slice(0, 1));
  return userTexts(record).slice(0, 1);
}

function read(file: HistoryFile, home: string): HistoryRead {
  const got = readHeadTail(file.path, HEAD, TAIL);
  if ('kind' in got) return { kind: 'skipped', why: got.kind === 'missing' ? 'it vanished' : got.reason };
  const header = got.head[0] === undefined ? null : jsonObjectOf(got.head[0]);
  if (header === null || !isValidId(header.sessionId)) return { kind: 'skipped', why: 'its first record names no session' };
  if (header.kind !== undefined && header.kind !== 'main') return { kind: 'rows', rows: [] };
  const project = path.basename(path.dirname(path.dirname(file.path)));
  const cwd = projectRoot(home, project);
  if (cwd === null) return { kind: 'skipped', why: `no .project_root or projects.json entry names the directory of ${project}` };
  if (header.projectHash !== hashOf(cwd)) return { kind: 'skipped', why: `its projectHash is not that of ${cwd}` };
  const prompts = [...got.head.slice(1), ...got.tail].flatMap((line) => {
    const record = jsonObjectOf(line);
    return record === null ? [] : promptsOf(record);
  });
  const [firstPrompt] = prompts;
  // No user message in the head: gemini writes none before the first one, and cannot resume it.
  if (firstPrompt === undefined) return { kind: 'rows', rows: [] };
  const id = header.sessionId as string;
  return { kind: 'rows', rows: [{ id, title: firstPrompt, firstPrompt, updatedAt: file.mtimeMs, messages: got.whole ? prompts.length : null, cwd }] };
}

function textsOf(record: JsonObject): string[] {
  const set = record.$set;
  const messages = isJsonObject(set) && Array.isArray(set.messages) ? set.messages : [record];
  return messages.flatMap((m: unknown) => (isJsonObject(m) && (m.type === 'user' || m.type === 'gemini') ? textsOfContent(m.content) : []));
}

/** The session id its first record names (search reports conversations by id). */
function idOf(file: HistoryFile): string | null {
  const line = readFirstLine(file.path, HEAD);
  const header = line === null ? null : jsonObjectOf(line);
  return header !== null && isValidId(header.sessionId) ? header.sessionId : null;
}

export const geminiHistory: HistoryReader = {
  files,
  read,
  search(file, _home, needle) {
    const id = idOf(file);
    return id === null ? { kind: 'skipped', why: 'its first record names no session' } : searchJsonLines(file, id, needle, textsOf);
  },
};
