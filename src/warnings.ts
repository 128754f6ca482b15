// Warnings about the entries of a recipe (a directory that does not exist, a conversation open
// elsewhere, a window tmux did not make), summed up for a terminal: a recipe of 300 000 missing
// directories printed 300 000 lines. Each reason gets one line with its count and its first
// few entries; `verbose` gives one line per entry, as a `--json` document gives them all.
// Shared by the CLI (load, recover, doctor), the supervisor's log and the dashboard. Pure.

export interface Warning {
  /** Which entry: `<cwd>: <command>`, or a directory. Empty for a line that names none. */
  entry: string;
  /** Why, in the same words for every entry it applies to: warnings are summed up by it. */
  reason: string;
  /** This entry's own account, when it says more than the reason (`conversation … is open in pid 42`). */
  detail?: string;
  /** How many tasks the entry stands for, when it is a directory of them. */
  tasks?: number;
}

export interface WarningGroup {
  reason: string;
  count: number;
  /** The tasks of its entries, when they are directories of tasks; else null. */
  tasks: number | null;
  /** The first entries, in the order they came. */
  first: Warning[];
}

/** How many entries a summary line names. */
export const FIRST_ENTRIES = 3;
/** How many reasons get a line of their own before the rest are counted in one. */
export const MAX_REASONS = 8;

/** The warnings by reason, in the order each reason first came; keeps only `keep` entries of each. */
export function groupWarnings(warnings: Iterable<Warning>, keep = FIRST_ENTRIES): WarningGroup[] {
  const groups = new Map<string, WarningGroup>();
  for (const w of warnings) {
    let group = groups.get(w.reason);
    if (group === undefined) {
      group = { reason: w.reason, count: 0, tasks: null, first: [] };
      groups.set(w.reason, group);
    }
    group.count += 1;
    if (w.tasks !== undefined) group.tasks = (group.tasks ?? 0) + w.tasks;
    if (group.first.length < keep) group.first.push(w);
  }
  return [...groups.values()];
}

export interface WarningStyle {
  /** Starts every line: `skipped: `, `not loaded: `. */
  label: string;
  /** What the entries are, counted on a summary line: `task(s)` unless said. */
  noun?: string;
  /** How the reader gets every entry, said on a summary line: `--verbose lists every one`. */
  more: string;
}

/** One entry's own line, as it was printed before warnings were summed up. */
export function warningLine(w: Warning, style: Pick<WarningStyle, 'label'>): string {
  const text = w.detail ?? w.reason;
  if (w.entry === '') return `${style.label}${text}`;
  return `${style.label}${w.tasks === undefined ? '' : `${w.tasks} task(s) in `}${w.entry}: ${text}`;
}

/**
 * The lines to print: with `verbose` one per warning; else one per reason (a reason with a
 * single entry keeps that entry's own line), at most MAX_REASONS of them and a last one
 * counting the rest.
 */
export function warningLines(warnings: readonly Warning[], style: WarningStyle, verbose = false): string[] {
  if (verbose) return warnings.map((w) => warningLine(w, style));
  const groups = groupWarnings(warnings);
  const lines = groups.slice(0, MAX_REASONS).map((g) => (g.count === 1 && g.first[0] ? warningLine(g.first[0], style) : summaryLine(g, style)));
  const rest = groups.slice(MAX_REASONS);
  if (rest.length > 0) {
    const count = rest.reduce((n, g) => n + g.count, 0);
    lines.push(`${style.label}${count} more for ${rest.length} other reasons (${style.more})`);
  }
  return lines;
}

function summaryLine(g: WarningGroup, style: WarningStyle): string {
  const named = g.first.map((w) => w.entry).filter((e) => e !== '');
  if (named.length === 0) return `${style.label}${g.reason} (${g.count} times)`;
  const others = g.count - named.length;
  const tail = others > 0 ? ` and ${others} more (${style.more})` : '';
  const tasks = g.tasks === null ? '' : `${g.tasks} task(s) in `;
  return `${style.label}${tasks}${g.count} ${style.noun ?? 'task(s)'}: ${g.reason}: ${named.join(', ')}${tail}`;
}
