// Pure builder/parser for tmux `-F` queries (no tmux here; unit-tested in test/tmux).
//
// A query names its fields; the format is `#{f1}<sep>#{f2}<sep>…#{fn}<sep>` — every field,
// including the last, is followed by the separator — and tmux prints one such record per line.
// Parsing splits the whole output on the separator only, so values may hold spaces, tabs and
// even newlines (a record's first field just loses the one newline tmux put between records).
//
// Values are not trusted to be free of any fixed separator: window and session names and @
// options are whatever a user, a task or a label put there (tmux 3.3a stores `\n`, `\t` and
// U+241E in a window name as they are), and a name holding the separator once shifted every
// later field — a crafted label moved another process's pid into its own pane's record. So a
// query (formatQuery) gets a separator of its own: U+241E SYMBOL FOR RECORD SEPARATOR (printable,
// so tmux prints it as is; the runner passes `-u`) followed by random hex. Nothing set before
// the query can contain it; if the value count still does not divide, parsing throws rather
// than mis-assigning fields.
import { randomBytes } from 'node:crypto';

export const SEP = '\u241e';

/** A query: the tmux format variables to read, in order. */
export type Fields = readonly string[];

/** One parsed record: field name → raw string value as tmux printed it. */
export type RawRecord<F extends Fields> = { [K in F[number]]: string };

/** A query's format and the parser of what tmux printed for it, sharing a fresh separator. */
export interface FormatQuery<F extends Fields> {
  format: string;
  parse(output: string): RawRecord<F>[];
  /** Exactly one record (a `display-message -p` or `new-window -P` query), or an error. */
  parseOne(output: string): RawRecord<F>;
}

export function formatQuery<F extends Fields>(fields: F, separator: string = freshSeparator()): FormatQuery<F> {
  return {
    format: buildFormat(fields, separator),
    parse: (output) => parseRecords(fields, output, separator),
    parseOne: (output) => parseRecord(fields, output, separator),
  };
}

/** SEP and 12 random hex digits: unguessable by whatever set a value before the query ran. */
export function freshSeparator(): string {
  return `${SEP}${randomBytes(6).toString('hex')}`;
}

/** `['pane_id','@fleetcom-task']` and `␞` → `#{pane_id}␞#{@fleetcom-task}␞`. */
export function buildFormat(fields: Fields, separator: string): string {
  if (fields.length === 0) throw new Error('a format query needs at least one field');
  for (const f of fields) {
    if (!/^@?[A-Za-z0-9_-]+$/.test(f)) throw new Error(`not a plain format variable: ${f}`);
  }
  if (!separator.startsWith(SEP) || /[#{}]/.test(separator)) throw new Error('a separator starts with SEP and holds no format syntax');
  return fields.map((f) => `#{${f}}${separator}`).join('');
}

/** Zips tmux's output of `buildFormat(fields)` back into one record per line. */
export function parseRecords<F extends Fields>(fields: F, output: string, separator: string): RawRecord<F>[] {
  const pieces = output.split(separator);
  const tail = pieces.pop() ?? '';
  if (tail.trim() !== '') throw new Error(`unexpected text after the last record: ${JSON.stringify(tail)}`);
  if (pieces.length % fields.length !== 0) {
    throw new Error(`tmux output has ${pieces.length} values, not a multiple of ${fields.length} fields`);
  }
  const records: RawRecord<F>[] = [];
  for (let at = 0; at < pieces.length; at += fields.length) {
    const record: Record<string, string> = {};
    fields.forEach((name, i) => {
      const value = pieces[at + i] ?? '';
      record[name] = i === 0 && at > 0 ? value.replace(/^\n/, '') : value;
    });
    records.push(record as RawRecord<F>);
  }
  return records;
}

/** Exactly one record (a `display-message -p` query), or an error. */
export function parseRecord<F extends Fields>(fields: F, output: string, separator: string): RawRecord<F> {
  const records = parseRecords(fields, output, separator);
  if (records.length !== 1 || records[0] === undefined) {
    throw new Error(`expected one record from tmux, got ${records.length}`);
  }
  return records[0];
}

/**
 * tmux expands formats in some text arguments (`new-window -n`, `rename-window`, `-c` start
 * directories). escapeFormat(text) is what to pass so that tmux stores exactly `text`:
 * format expansion turns `##` into `#` but copies a run of `#` that precedes `[` unchanged
 * (it keeps style escapes for the status line), so runs before `[` are left alone and every
 * other `#` is doubled. (How the status line DRAWS a stored name is another matter: there `##`
 * shows as `#` and `#[…]` is a style, so a label meant to be shown literally is stored with
 * every `#` doubled — see escapeStyle.)
 */
export function escapeFormat(text: string): string {
  return text.replace(/#+(\[)?/g, (run: string, bracket: string | undefined) => (bracket ? run : run + run));
}

/**
 * What a window name may hold of a label: control characters (tmux 3.3a stores a newline or an
 * escape in a name as it is, and the status line would draw it) become spaces, and a long label
 * is cut to `max` characters with `…` — tmux refuses a command over 16 KiB, and a 4 KiB label
 * of `#` is four times that once escaped for style and format. The full label stays in the
 * fleet's own records; the window name is only for display.
 */
export function windowLabel(text: string, max = 80): string {
  const chars = Array.from(text.replace(/\p{Cc}/gu, ' '));
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** A label the status line draws literally: every `#` doubled (`#[x]` is no style). */
export function escapeStyle(text: string): string {
  return text.replaceAll('#', '##');
}

/** `''` → null, `'17'` → 17; anything else non-numeric → null. */
export function parseIntOrNull(value: string): number | null {
  return /^-?\d+$/.test(value) ? Number(value) : null;
}

/** tmux boolean format (`1`/`0`/empty). */
export function parseFlag(value: string): boolean {
  return value === '1';
}
