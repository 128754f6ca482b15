// The human table of `fleetcom doctor`: one row per entry, then the sources the ownership
// check read. Pure.
import type { EntryReport } from '../doctor/checks.js';
import { alignColumns } from './columns.js';

export function formatDoctorTable(entries: readonly EntryReport[]): string {
  if (entries.length === 0) return 'no entries\n';
  const rows = entries.map((e) => [`${e.dir}: ${e.name ?? e.command}`, e.verdict, e.why, e.todo]);
  const sources = [...new Set(entries.flatMap((e) => e.checks.flatMap((c) => (c.source ? [c.source] : []))))];
  const footer = sources.length > 0 ? `\nwhether a conversation is open elsewhere was read from:\n${sources.map((s) => `  ${s}\n`).join('')}` : '';
  return alignColumns(['ENTRY', 'VERDICT', 'WHY', 'WHAT TO DO'], rows) + footer;
}
