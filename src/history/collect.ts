import { harnessFor, type HistoryEntry, type HistoryScope } from '../harness/index.js';
import type { HistoryCache } from './cache.js';
import type { AgentHome, Found, Skipped } from './types.js';

// Every conversation of the scope in the given homes: each agent's files listed by its
// harness, each file read only when the cache has no rows for its size and mtime, the agent's
// own titles laid over, the scope applied to each conversation's directory, newest first.

export function collect(homes: readonly AgentHome[], scope: HistoryScope, cache: HistoryCache): { found: Found[]; skipped: Skipped[] } {
  const wanted = scope.kind === 'dirs' ? new Set(scope.dirs) : null;
  const byKey = new Map<string, Found>();
  const skipped: Skipped[] = [];
  for (const { agent, home } of homes) {
    const reader = harnessFor(agent).history;
    if (reader === undefined) continue;
    const listing = reader.files(home, scope);
    for (const skip of listing.skipped) skipped.push({ agent, ...skip });
    const titles = reader.titles?.(home) ?? new Map<string, string>();
    for (const file of listing.files) {
      let rows: HistoryEntry[] | null = cache.get(agent, file);
      if (rows === null) {
        const read = reader.read(file, home);
        if (read.kind === 'skipped') {
          skipped.push({ agent, path: file.path, why: read.why });
          continue;
        }
        rows = read.rows;
        cache.set(agent, file, rows);
      }
      for (const row of rows) {
        if (wanted !== null && !wanted.has(row.cwd)) continue;
        const found: Found = { ...row, title: titles.get(row.id) ?? row.title, agent, home, file: file.path };
        merge(byKey, found);
      }
    }
    if (scope.kind === 'all') cache.forget(agent, home);
  }
  return { found: [...byKey.values()].sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id)), skipped };
}

/**
 * One conversation kept in several files (gemini writes a second one when a resume starts in a
 * later minute) is one row: the newest file's time, the first non-empty title and prompt.
 */
function merge(byKey: Map<string, Found>, found: Found): void {
  const key = `${found.agent}\u0000${found.home}\u0000${found.id}`;
  const known = byKey.get(key);
  if (known === undefined) {
    byKey.set(key, found);
    return;
  }
  const [newer, older] = found.updatedAt > known.updatedAt ? [found, known] : [known, found];
  byKey.set(key, {
    ...newer,
    title: newer.title || older.title,
    firstPrompt: older.firstPrompt || newer.firstPrompt,
    messages: newer.messages === null || older.messages === null ? null : newer.messages + older.messages,
  });
}
