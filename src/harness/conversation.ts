import * as path from 'node:path';
import { claudeProjectDirs, claudeTranscriptHasUser } from './claude.js';
import { rolloutId } from './codex.js';
import { grokEncodeCwd } from './grok.js';
import { isValidId, v7TimeMs } from './ids.js';
import { listDir, statOrNull } from './fs-read.js';
import { utcDateFolders } from './store-window.js';
import type { HarnessName } from './types.js';

// Whether a conversation a recipe names can be resumed from the agent's own store: the check
// `fleetcom doctor` makes before anything starts. Reads only under the home it is given.

export type StoredConversation =
  | { found: true; path: string }
  | { found: false; path: string; why: string };

/** Where `<agent> <resume> <id>` run in `cwd` with `home` would look, and whether it would find a conversation. */
export function storedConversation(harness: HarnessName, home: string, cwd: string, id: string): StoredConversation {
  if (!isValidId(id)) return { found: false, path: home, why: `${JSON.stringify(id)} is not a conversation id` };
  switch (harness) {
    case 'claude':
      return claudeTranscript(home, cwd, id);
    case 'codex':
      return codexRollout(home, id);
    case 'grok':
      return grokSession(home, cwd, id);
  }
}

/** 8.2: the transcript exists and holds a typed message; claude refuses `--resume` otherwise. */
function claudeTranscript(home: string, cwd: string, id: string): StoredConversation {
  const candidates = claudeProjectDirs(home, cwd).map((dir) => path.join(dir, `${id}.jsonl`));
  const existing = candidates.find((file) => statOrNull(file)?.isFile());
  const shown = existing ?? candidates[0] ?? path.join(home, 'projects', `${id}.jsonl`);
  if (existing === undefined) return { found: false, path: shown, why: `no claude transcript ${shown}` };
  if (!claudeTranscriptHasUser(home, cwd, id)) return { found: false, path: shown, why: `the transcript ${shown} holds no message` };
  return { found: true, path: existing };
}

/**
 * The rollout `sessions/YYYY/MM/DD/rollout-*-<id>.jsonl`. codex writes it at the first message,
 * so its existence means the conversation holds one. A v7 id names its day (± a day for the
 * local time codex may file it under); any other id is looked for in every date folder.
 */
export function findRollout(home: string, id: string): string | null {
  const root = path.join(home, 'sessions');
  const time = v7TimeMs(id);
  const folders = time !== null ? utcDateFolders(time, time, 1, 1) : everyDateFolder(root);
  for (const folder of folders) {
    const dir = path.join(root, ...folder.split('/'));
    for (const entry of listDir(dir)) {
      if (entry.isFile() && rolloutId(entry.name) === id) return path.join(dir, entry.name);
    }
  }
  return null;
}

function everyDateFolder(root: string): string[] {
  const folders: string[] = [];
  const dirsIn = (dir: string) => listDir(dir).filter((e) => e.isDirectory()).map((e) => e.name);
  for (const y of dirsIn(root)) for (const m of dirsIn(path.join(root, y))) for (const d of dirsIn(path.join(root, y, m))) folders.push(`${y}/${m}/${d}`);
  return folders;
}

function codexRollout(home: string, id: string): StoredConversation {
  const file = findRollout(home, id);
  const root = path.join(home, 'sessions');
  return file === null ? { found: false, path: root, why: `no codex rollout for ${id} under ${root}` } : { found: true, path: file };
}

function grokSession(home: string, cwd: string, id: string): StoredConversation {
  const dir = path.join(home, 'sessions', grokEncodeCwd(cwd), id);
  return statOrNull(dir)?.isDirectory() ? { found: true, path: dir } : { found: false, path: dir, why: `no grok session directory ${dir}` };
}
