// The human table of `fleetcom doctor`: one row per entry, then the sources the ownership
// check read. Entries that fail or are unsure for the same reason are summed up past the first
// few (a recipe of 300 000 missing directories is three rows and a count); `verbose` lists
// every one, as `--json` does. Pure.
import type { CheckName, EntryReport } from '../../doctor/checks.js';
import { FIRST_ENTRIES } from '../../warnings.js';
import { alignColumns } from '../columns.js';

/** What a failed check says of every entry it failed, in the row that counts the rest. */
const KIND: Record<CheckName, string> = {
  directory: 'the directory does not exist',
  program: 'the program is not found',
  conversation: 'the conversation cannot be resumed',
  ownership: 'the conversation is open elsewhere',
  settings: "the agent's settings may lose the conversation",
  worktree: 'the worktree cannot be restored',
};

/**
 * The checks an entry is summed up by: those that failed (or, unsure, could not tell); none
 * when ok, or when the report names no checks (another host's entries come without them).
 */
function reasonOf(e: EntryReport): CheckName[] | null {
  if (e.verdict === 'ok') return null;
  const checks = e.checks.filter((c) => (e.verdict === 'fail' ? c.ok === false : c.ok === null)).map((c) => c.check);
  return checks.length === 0 ? null : checks;
}

export function formatDoctorTable(entries: readonly EntryReport[], verbose = false): string {
  if (entries.length === 0) return 'no entries\n';
  const rows: string[][] = [];
  const folded = new Map<string, { row: string[]; count: number; checks: CheckName[] }>();
  const shown = new Map<string, number>();
  for (const e of entries) {
    const checks = verbose ? null : reasonOf(e);
    const reason = checks === null ? null : `${e.verdict}:${checks.join(',')}`;
    const n = reason === null ? 0 : (shown.get(reason) ?? 0);
    if (reason === null || n < FIRST_ENTRIES) {
      if (reason !== null) shown.set(reason, n + 1);
      rows.push([`${e.dir}: ${e.name ?? e.command}`, e.verdict, e.why, e.todo]);
      continue;
    }
    let fold = folded.get(reason);
    if (fold === undefined) {
      fold = { row: ['', e.verdict, '', e.todo], count: 0, checks: checks ?? [] };
      folded.set(reason, fold);
      rows.push(fold.row); // in place of the first entry it sums up; its count is filled in below
    }
    fold.count += 1;
  }
  for (const fold of folded.values()) {
    fold.row[0] = `… and ${fold.count} more`;
    fold.row[2] = `${fold.checks.map((c) => KIND[c]).join('; ')} (--verbose lists every one)`;
  }
  const sources = new Set<string>();
  for (const e of entries) for (const c of e.checks) if (c.source) sources.add(c.source);
  const footer = sources.size > 0 ? `\nwhether a conversation is open elsewhere was read from:\n${[...sources].map((s) => `  ${s}\n`).join('')}` : '';
  return alignColumns(['ENTRY', 'VERDICT', 'WHY', 'WHAT TO DO'], rows) + footer;
}
