import { isValidId } from './ids.js';

// Shared rules of store correlation: the time window, the time
// of a store entry, the UTC date folders codex uses, and the "exactly one candidate" rule.

/** How far before the spawn (and, for grok, after it) a store entry may be born. */
export const WINDOW_MS = 30_000;
const DAY_MS = 86_400_000;

/** Inclusive on both ends. */
export function inWindow(time: number, from: number, to: number): boolean {
  return time >= from && time <= to;
}

/**
 * The time of a store entry, in whole ms: its birth time where the file system records one
 * (`birthtimeMs > 0`), else its mtime. Truncated so that integer spawn times compare exactly
 * (a file born 30 000.4 ms before the spawn counts as 30 000 ms, 30 000.9 as 30 000 too; the
 * first whole millisecond outside, 30 001, is out).
 */
export function entryTimeMs(stats: { birthtimeMs: number; mtimeMs: number }): number {
  return Math.floor(stats.birthtimeMs > 0 ? stats.birthtimeMs : stats.mtimeMs);
}

/** `YYYY/MM/DD` (UTC) for every day from `fromMs`'s day − `before` to `toMs`'s day + `after`. */
export function utcDateFolders(fromMs: number, toMs: number, before: number, after: number): string[] {
  const first = Math.floor(fromMs / DAY_MS) - before;
  const last = Math.floor(Math.max(fromMs, toMs) / DAY_MS) + after;
  const folders: string[] = [];
  for (let day = first; day <= last; day++) {
    const date = new Date(day * DAY_MS);
    const yyyy = String(date.getUTCFullYear()).padStart(4, '0');
    const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
    const dd = String(date.getUTCDate()).padStart(2, '0');
    folders.push(`${yyyy}/${mm}/${dd}`);
  }
  return folders;
}

/**
 * The single candidate left after removing excluded ids, or null when none or several remain.
 * Candidates are store stems as found; a stem that is not a valid id still counts (it may be
 * the task's conversation under a name we cannot resume), so it makes the result ambiguous.
 */
export function soleCandidate(
  candidates: Iterable<string>,
  excluded: ReadonlySet<string>,
  isId: (value: string) => boolean = isValidId,
): string | null {
  const remaining = new Set<string>();
  for (const stem of candidates) if (!excluded.has(stem)) remaining.add(stem);
  if (remaining.size !== 1) return null;
  const [only] = remaining;
  return only !== undefined && isId(only) ? only : null;
}
