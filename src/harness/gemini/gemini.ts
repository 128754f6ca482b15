import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { argvProbe } from '../argv-probe.js';
import { noSignal } from '../attention.js';
import { geminiTitle } from './title.js';
import { geminiHistory } from './history.js';
import { pinWithSessionId } from '../session-id-pin.js';
import type { Harness } from '../harness.js';
import { homeFromVariable } from '../home-rules.js';
import { isValidId } from '../ids.js';
import { listDir, readFirstLine, readTextFile, someLine } from '../fs-read.js';
import { isJsonObject, jsonObjectOf } from '../json-shape.js';
import { lastHint } from '../scrape.js';
import { geminiConversing } from './conversing.js';
import type { ConversationOf, ConversationRoots, RunEvidence, StoredConversation } from '../types.js';

// gemini-cli: pinned with `--session-id`, no live channel (it offers no per-launch hook that
// leaves the user's files alone: its system settings overlay is read only when root owns it),
// the exit hint, and a session file that must exist with a message for the id to count.
// Measured on 0.61.0: `<GEMINI_CLI_HOME or HOME>/.gemini/tmp/<slug>/chats/
// session-<YYYY-MM-DDTHH-MM>-<first 8 of id>.jsonl`, written at the first message; a `/quit`
// with no message still prints the hint but writes no file, and `--resume` of it fails.

/** The longest first line of a session file fleetcom reads. */
const FIRST_LINE_MAX = 64 * 1024;
/** gemini's own first message of every session: the context it sets up, not the user's words. */
const SESSION_CONTEXT = '<session_context>';

/** sha256 of the cwd, as gemini writes it in `projectHash`. */
export function geminiProjectHash(cwd: string): string {
  return createHash('sha256').update(cwd).digest('hex');
}

/**
 * The session files of `id` for `cwd`: `chats/session-*-<id8>.jsonl` directly in a project's
 * chats folder (a subagent's sessions live a level down, in `chats/<parent id>/`, and are never
 * read), whose first record names this id, this cwd's hash and a main session. A resume in a
 * later minute adds a second file for the same id; both are the conversation's.
 */
export function geminiSessionFiles(home: string, cwd: string, id: string): string[] {
  if (!isValidId(id)) return [];
  const tmp = path.join(home, '.gemini', 'tmp');
  const suffix = `-${id.slice(0, 8)}.jsonl`;
  const hash = geminiProjectHash(cwd);
  const found: string[] = [];
  for (const project of listDir(tmp)) {
    if (!project.isDirectory()) continue;
    const chats = path.join(tmp, project.name, 'chats');
    for (const entry of listDir(chats)) {
      if (!entry.isFile() || !entry.name.startsWith('session-') || !entry.name.endsWith(suffix)) continue;
      const file = path.join(chats, entry.name);
      if (isMainSessionOf(file, id, hash)) found.push(file);
    }
  }
  return found.sort();
}

/**
 * 9.5: a subagent's session lives in `chats/<parent id>/` of its project. An id found only
 * there stands for its parent's conversation (a main session of this cwd), or for none when
 * the parent has no main session here; an id found nowhere says nothing against itself.
 */
function conversationOf(id: string, roots: ConversationRoots): ConversationOf {
  if (geminiSessionFiles(roots.home, roots.cwd, id).length > 0) return { kind: 'own', id };
  const parent = subagentParent(roots.home, id);
  if (parent === null) return { kind: 'own', id };
  if (geminiSessionFiles(roots.home, roots.cwd, parent).length === 0) {
    return { kind: 'none', child: id, note: `a subagent session of ${parent}, which has no main session of ${roots.cwd}` };
  }
  return { kind: 'parent', id: parent, child: id, note: `a subagent session of ${parent}` };
}

/** The parent folder `chats/<parent id>/` holding a session file of `id`, or null. */
function subagentParent(home: string, id: string): string | null {
  const tmp = path.join(home, '.gemini', 'tmp');
  const suffix = `-${id.slice(0, 8)}.jsonl`;
  for (const project of listDir(tmp)) {
    if (!project.isDirectory()) continue;
    const chats = path.join(tmp, project.name, 'chats');
    for (const folder of listDir(chats)) {
      if (!folder.isDirectory() || !isValidId(folder.name) || folder.name === id) continue;
      for (const entry of listDir(path.join(chats, folder.name))) {
        if (!entry.isFile() || !entry.name.endsWith(suffix)) continue;
        const line = readFirstLine(path.join(chats, folder.name, entry.name), FIRST_LINE_MAX);
        if (line !== null && jsonObjectOf(line)?.sessionId === id) return folder.name;
      }
    }
  }
  return null;
}

function isMainSessionOf(file: string, id: string, hash: string): boolean {
  const line = readFirstLine(file, FIRST_LINE_MAX);
  const value = line === null ? null : jsonObjectOf(line);
  if (value === null) return false;
  const kind = value.kind;
  return value.sessionId === id && value.projectHash === hash && (kind === undefined || kind === 'main');
}

/** A message the user typed: `type: "user"` with some text that is not gemini's session context. */
function isUserMessage(message: unknown): boolean {
  if (!isJsonObject(message) || message.type !== 'user') return false;
  const content = message.content;
  const parts = typeof content === 'string' ? [content] : Array.isArray(content) ? content : [];
  return parts.some((part) => {
    const text = typeof part === 'string' ? part : isJsonObject(part) && typeof part.text === 'string' ? part.text : '';
    return text.trim() !== '' && !text.trimStart().startsWith(SESSION_CONTEXT);
  });
}

/** A line holding a user message: a message record, or a `$set` of messages that has one. */
function hasUserMessage(line: string): boolean {
  const value = jsonObjectOf(line);
  if (value === null) return false;
  const set = value.$set;
  if (isJsonObject(set) && Array.isArray(set.messages)) return set.messages.some(isUserMessage);
  return isUserMessage(value);
}

/** Whether `gemini --resume <id>` in `cwd` has a conversation with a message to come back to. */
export function geminiSessionHasUser(home: string, cwd: string, id: string): boolean {
  return geminiSessionFiles(home, cwd, id).some((file) => someLine(file, hasUserMessage));
}

function stored(home: string, cwd: string, id: string): StoredConversation {
  const chats = path.join(home, '.gemini', 'tmp', '<project>', 'chats');
  const files = geminiSessionFiles(home, cwd, id);
  const [first] = files;
  if (first === undefined) return { found: false, path: chats, why: `no gemini session file for ${id} of ${cwd} under ${path.join(home, '.gemini', 'tmp')}` };
  if (!files.some((file) => someLine(file, hasUserMessage))) return { found: false, path: first, why: `the gemini session ${first} holds no message` };
  return { found: true, path: first };
}

/**
 * gemini's own session cleanup (on unless `general.sessionRetention.enabled` is false) deletes
 * a resumed conversation: measured on 0.61.0, resuming in a later minute writes a stub file
 * for the same id, and the next start of any session finds the stub invalid and deletes every
 * file of that id, the conversation included.
 */
export function geminiCleanupWarning(home: string): string | null {
  return cleanupWarning(geminiSettings(home));
}

function cleanupWarning({ file, settings }: GeminiSettings): string | null {
  const general = isJsonObject(settings) ? settings.general : undefined;
  const retention = isJsonObject(general) ? general.sessionRetention : undefined;
  const enabled = isJsonObject(retention) ? retention.enabled : undefined;
  if (enabled === false) return null;
  return (
    `gemini's session cleanup is on in ${file} (general.sessionRetention.enabled is ${enabled === undefined ? 'unset' : JSON.stringify(enabled)}): ` +
    'gemini then deletes a resumed conversation at a later start; set "general": {"sessionRetention": {"enabled": false}} there'
  );
}

/**
 * doctor: gemini's attention is its terminal title (title.ts); `ui.hideWindowTitle` or a fixed
 * title (`ui.dynamicWindowTitle: false`) leaves its tasks without one.
 */
export function geminiTitleWarning(home: string): string | null {
  return titleWarning(geminiSettings(home));
}

function titleWarning({ file, settings }: GeminiSettings): string | null {
  const ui = isJsonObject(settings) ? settings.ui : undefined;
  if (!isJsonObject(ui)) return null;
  const off = ui.hideWindowTitle === true ? '"ui.hideWindowTitle" is true' : ui.dynamicWindowTitle === false ? '"ui.dynamicWindowTitle" is false' : null;
  return off === null ? null : `${file}: ${off}, so gemini's terminal title does not say when it works, waits or asks: its tasks show no attention`;
}

interface GeminiSettings {
  file: string;
  settings: unknown;
}

/** The user's gemini settings file, parsed (null when missing or not JSON). */
function geminiSettings(home: string): GeminiSettings {
  const file = path.join(home, '.gemini', 'settings.json');
  const read = readTextFile(file);
  if (read.kind !== 'text') return { file, settings: null };
  try {
    return { file, settings: JSON.parse(stripJsonComments(read.text)) as unknown };
  } catch {
    return { file, settings: null };
  }
}

/** gemini reads its settings as JSON with comments. */
function stripJsonComments(text: string): string {
  return text.replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (match, quoted: string | undefined) => quoted ?? '');
}

export const gemini: Harness = {
  name: 'gemini',
  selectors: ['--resume'],
  isId: isValidId,
  idShape: 'a lowercase 8-4-4-4-12 uuid',
  // GEMINI_CLI_HOME stands in for $HOME: the store is `<it>/.gemini`.
  home: homeFromVariable('gemini', 'GEMINI_CLI_HOME', ''),
  assets: [],
  instrument: pinWithSessionId,
  parseCapture: () => [],
  captureId: () => null,
  // The worktree form `cd <path> && gemini --resume <id>` ends the same way.
  scrapeExit: (text) => lastHint(text, { prefixes: ['gemini --resume '] }),
  // A bare gemini always has its pin, and a pin without a session file means it never talked.
  correlate: () => null,
  resumable: (id, evidence: RunEvidence) => geminiSessionHasUser(evidence.home, evidence.cwd, id),
  conversationOf,
  stored,
  ownership: { kind: 'none', why: 'gemini keeps no record of running sessions' },
  // Its title is its attention (title.ts): no hook can be added to one launch.
  attention: { file: 'none', signal: noSignal, conversationFromCapture: false, title: { read: geminiTitle, tells: 'all', asking: 'gemini asks for your approval' } },
  history: geminiHistory,
  conversing: geminiConversing(geminiSessionFiles),
  warnings: (home) => {
    const read = geminiSettings(home); // once for both: doctor asks for every gemini entry
    return [cleanupWarning(read), titleWarning(read)].filter((w): w is string => w !== null);
  },
  // `--session-id` pins a new session, `--resume`/`-r` continues one (`latest` or an index names none surely).
  probe: argvProbe('gemini', { flags: ['--session-id', '--resume', '-r'], isId: isValidId, noRecord: "gemini's session files name no process" }),
};
