import * as path from 'node:path';
import { claudeProjectDirs, claudeTranscriptHasUser } from './claude.js';
import { findRollout } from './codex-rollouts.js';
import { grokEncodeCwd } from './grok.js';
import { isValidId } from './ids.js';
import { statOrNull } from './fs-read.js';
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

function codexRollout(home: string, id: string): StoredConversation {
  const file = findRollout(home, id);
  const root = path.join(home, 'sessions');
  return file === null ? { found: false, path: root, why: `no codex rollout for ${id} under ${root}` } : { found: true, path: file };
}

function grokSession(home: string, cwd: string, id: string): StoredConversation {
  const dir = path.join(home, 'sessions', grokEncodeCwd(cwd), id);
  return statOrNull(dir)?.isDirectory() ? { found: true, path: dir } : { found: false, path: dir, why: `no grok session directory ${dir}` };
}
