import { harnessFor } from '../harness/index.js';
import type { Found, Skipped } from './types.js';

// `history --search TEXT`: the listed conversations whose messages hold the text, newest first,
// each file streamed by its agent's reader (never loaded whole) and reported as soon as it
// matches, so the first results show while older files are still read.

export type SearchEvent = { kind: 'match'; row: Found; snippet: string } | { kind: 'skipped'; skip: Skipped };

export function* searchFound(found: readonly Found[], needle: string): Generator<SearchEvent> {
  // A file holding several conversations (opencode's database) is searched once.
  const byFile = new Map<string, Found[]>();
  for (const row of found) {
    const key = `${row.agent}\u0000${row.home}\u0000${row.file}`;
    const rows = byFile.get(key);
    if (rows === undefined) byFile.set(key, [row]);
    else rows.push(row);
  }
  for (const rows of byFile.values()) {
    const [first] = rows;
    const reader = first === undefined ? undefined : harnessFor(first.agent).history;
    if (first === undefined || reader === undefined) continue;
    const result = reader.search({ path: first.file, size: 0, mtimeMs: 0 }, first.home, needle);
    if (result.kind === 'skipped') {
      yield { kind: 'skipped', skip: { agent: first.agent, path: first.file, why: result.why } };
      continue;
    }
    for (const match of result.matches) {
      const row = rows.find((r) => r.id === match.id);
      if (row !== undefined) yield { kind: 'match', row, snippet: match.snippet };
    }
  }
}
