import { formatAge } from '../format-age.js';
import type { HeldBy, HistoryRow, Skipped } from './types.js';

// Plain `history` output: one line per conversation — agent, age, who holds it, title, id —
// cut to the terminal's width (the title gives way; the id never does, it is what resume takes).

const AGENT_WIDTH = 8;

function held(by: HeldBy): string {
  if (by === null) return '';
  return 'task' in by ? `[task ${by.task}] ` : `[pid ${by.pid}] `;
}

/** Control characters and line breaks a store file may hold, made harmless on one line. */
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').replace(/\s+/g, ' ').trim();
}

function cut(text: string, width: number): string {
  const chars = [...text];
  if (width <= 0) return '';
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** One line; `width` null: not cut (output to a file or a pipe). */
export function historyLine(row: HistoryRow, now: number, width: number | null): string {
  const age = formatAge(now - Date.parse(row.updatedAt)).padStart(4);
  const head = `${row.agent.padEnd(AGENT_WIDTH)} ${age}  ${held(row.heldBy)}`;
  const title = oneLine(row.title) || '(untitled)';
  if (width === null) return `${head}${title}  ${row.id}`;
  const room = width - [...head].length - 2 - row.id.length;
  return `${head}${cut(title, Math.max(room, 8))}  ${row.id}`;
}

export function snippetLine(snippet: string, width: number | null): string {
  const text = `    ${oneLine(snippet)}`;
  return width === null ? text : cut(text, width);
}

/** `3 store files skipped (2 not a regular file, 1 EACCES); --verbose lists them`. */
export function skippedSummary(skipped: readonly Skipped[], verbose: boolean): string[] {
  if (skipped.length === 0) return [];
  if (verbose) return skipped.map((s) => `skipped ${s.agent} ${s.path}: ${oneLine(s.why)}`);
  const reasons = new Map<string, number>();
  for (const s of skipped) reasons.set(s.why, (reasons.get(s.why) ?? 0) + 1);
  const parts = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([why, n]) => `${n} ${oneLine(why)}`);
  const more = reasons.size > 3 ? ', …' : '';
  return [`${skipped.length} store file${skipped.length === 1 ? '' : 's'} skipped (${parts.join(', ')}${more}); --verbose lists them`];
}
