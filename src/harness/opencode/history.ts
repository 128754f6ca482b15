import type { HistoryFile, HistoryRead, HistoryReader, HistorySkip } from '../history.js';
import { historyFileOf, snippetOf } from '../history-read.js';
import { readSqliteTable, type SqlValue } from '../sqlite-read.js';
import { statOrNull } from '../fs-read.js';

// opencode's conversations for `history`: the `session` rows of its database (the home is the
// database file), root sessions only (a row with a parent_id is a subagent's), with opencode's
// own title. The first prompt and the turns live in its `message` and `part` tables, which
// can be large and are not read: firstPrompt is '' and messages null; search matches titles.

const ID = /^ses_[0-9A-Za-z]{26}$/;

/** One entry for the database, its size and mtime covering the WAL too (a write may touch only the WAL). */
function files(db: string): { files: HistoryFile[]; skipped: HistorySkip[] } {
  const file = historyFileOf(db);
  if ('why' in file) return { files: [], skipped: file.why === 'ENOENT' ? [] : [{ path: db, why: file.why }] };
  const wal = statOrNull(`${db}-wal`);
  if (wal === null || !wal.isFile()) return { files: [file], skipped: [] };
  return { files: [{ path: db, size: file.size + wal.size, mtimeMs: Math.max(file.mtimeMs, Math.floor(wal.mtimeMs)) }], skipped: [] };
}

interface SessionTitle {
  id: string;
  title: string;
  cwd: string;
  updatedAt: number;
}

function sessions(db: string): SessionTitle[] | { why: string } {
  const read = readSqliteTable(db, 'session');
  if (read.kind === 'missing') return { why: 'it vanished' };
  if (read.kind === 'unreadable') return { why: read.reason };
  const at = (name: string) => read.columns.indexOf(name);
  const [id, parent, directory, title, updated] = [at('id'), at('parent_id'), at('directory'), at('title'), at('time_updated')];
  if ([id, parent, directory, title, updated].includes(-1)) return { why: 'its session table lacks id, parent_id, directory, title or time_updated' };
  const text = (v: SqlValue | undefined) => (typeof v === 'string' ? v : null);
  return read.rows.flatMap((row): SessionTitle[] => {
    const rowId = text(row[id]);
    const cwd = text(row[directory]);
    const time = row[updated];
    if (rowId === null || !ID.test(rowId) || row[parent] !== null || cwd === null || !cwd.startsWith('/')) return [];
    return [{ id: rowId, title: text(row[title]) ?? '', cwd, updatedAt: typeof time === 'number' ? time : 0 }];
  });
}

function read(file: HistoryFile): HistoryRead {
  const found = sessions(file.path);
  if ('why' in found) return { kind: 'skipped', why: found.why };
  return { kind: 'rows', rows: found.map((s) => ({ id: s.id, title: s.title, firstPrompt: '', updatedAt: s.updatedAt, messages: null, cwd: s.cwd })) };
}

export const opencodeHistory: HistoryReader = {
  files: (db) => files(db),
  read,
  search(file, _home, needle) {
    const found = sessions(file.path);
    if ('why' in found) return { kind: 'skipped', why: found.why };
    const lower = needle.toLowerCase();
    const matches = found.filter((s) => s.title.toLowerCase().includes(lower)).map((s) => ({ id: s.id, snippet: snippetOf(s.title, lower) }));
    return { kind: 'matches', matches };
  },
};
