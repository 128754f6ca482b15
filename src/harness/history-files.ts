import type { HistoryFile, HistorySkip } from './history.js';
import { historyFileOf } from './history-read.js';
import { entryPath, listDir } from './fs-read.js';
import { isValidId } from './ids.js';

// The transcripts of agents that keep one conversation a file named `<id>.jsonl` (claude, qwen):
// listed and stat'd for `history`, never read; a link or anything but a regular file is skipped.

export function idNamedTranscripts(dirs: readonly string[]): { files: HistoryFile[]; skipped: HistorySkip[] } {
  const found: HistoryFile[] = [];
  const skipped: HistorySkip[] = [];
  for (const dir of dirs) {
    for (const entry of listDir(dir)) {
      if (!entry.name.endsWith('.jsonl') || !isValidId(entry.name.slice(0, -'.jsonl'.length))) continue;
      const file = historyFileOf(entryPath(dir, entry.name));
      if ('why' in file) skipped.push({ path: entryPath(dir, entry.name), why: file.why });
      else found.push(file);
    }
  }
  return { files: found, skipped };
}
