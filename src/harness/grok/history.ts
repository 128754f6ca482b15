import * as path from 'node:path';
import type { HistoryFile, HistoryRead, HistoryReader, HistoryScope, HistorySkip } from '../history.js';
import { historyFileOf, readHeadTail, searchJsonLines, textsOfContent } from '../history-read.js';
import { listDir } from '../fs-read.js';
import { isValidId } from '../ids.js';
import { jsonObjectOf, type JsonObject } from '../json-shape.js';
import { grokEncodeCwd } from './store.js';

// grok's conversations for `history`: `<home>/sessions/<encoded cwd>/<id>/messages.jsonl`
// (`{role, content}` lines, as the store fleetcom's grok fake keeps; no real grok CLI with
// sessions exists to measure). Title: the first user message.

const HEAD = 64 * 1024;

/** `%2F` → `/`, `%25` → `%` (grokEncodeCwd undone); null when it is not such an encoding. */
function decodeCwd(name: string): string | null {
  const cwd = name.replaceAll('%2F', '/').replaceAll('%25', '%');
  return cwd.startsWith('/') && grokEncodeCwd(cwd) === name ? cwd : null;
}

function files(home: string, scope: HistoryScope): { files: HistoryFile[]; skipped: HistorySkip[] } {
  const sessions = path.join(home, 'sessions');
  const folders = scope.kind === 'dirs' ? scope.dirs.map(grokEncodeCwd) : listDir(sessions).filter((e) => e.isDirectory()).map((e) => e.name);
  const found: HistoryFile[] = [];
  const skipped: HistorySkip[] = [];
  for (const folder of folders) {
    for (const entry of listDir(path.join(sessions, folder))) {
      if (!entry.isDirectory() || !isValidId(entry.name)) continue;
      const file = historyFileOf(path.join(sessions, folder, entry.name, 'messages.jsonl'));
      if ('why' in file) {
        if (file.why !== 'ENOENT') skipped.push({ path: path.join(sessions, folder, entry.name, 'messages.jsonl'), why: file.why });
      } else found.push(file);
    }
  }
  return { files: found, skipped };
}

const idOf = (file: HistoryFile) => path.basename(path.dirname(file.path));

function read(file: HistoryFile): HistoryRead {
  const cwd = decodeCwd(path.basename(path.dirname(path.dirname(file.path))));
  if (cwd === null) return { kind: 'skipped', why: 'its folder is not an encoded directory' };
  const got = readHeadTail(file.path, HEAD, 0);
  if ('kind' in got) return { kind: 'skipped', why: got.kind === 'missing' ? 'it vanished' : got.reason };
  const prompts = got.head.flatMap((line) => {
    const record = jsonObjectOf(line);
    return record?.role === 'user' ? textsOfContent(record.content).filter((t) => t.trim() !== '').slice(0, 1) : [];
  });
  const [firstPrompt] = prompts;
  if (firstPrompt === undefined) return { kind: 'rows', rows: [] };
  return { kind: 'rows', rows: [{ id: idOf(file), title: firstPrompt, firstPrompt, updatedAt: file.mtimeMs, messages: got.whole ? prompts.length : null, cwd }] };
}

const textsOf = (record: JsonObject): string[] => (record.role === 'user' || record.role === 'assistant' ? textsOfContent(record.content) : []);

export const grokHistory: HistoryReader = {
  files,
  read,
  search: (file, _home, needle) => searchJsonLines(file, idOf(file), needle, textsOf),
};
