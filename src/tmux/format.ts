// Pure builder/parser for tmux `-F` queries (no tmux here; unit-tested in test/tmux).
//
// A query names its fields; the format is `#{f1}␞#{f2}␞…#{fn}␞` — every field, including the
// last, is followed by SEP — and tmux prints one such record per line. Parsing splits the whole
// output on SEP only, so values may hold spaces, tabs and even newlines (a record's first field
// just loses the one newline tmux put between records).
//
// SEP is U+241E SYMBOL FOR RECORD SEPARATOR (libtmux's choice): printable, so tmux prints it
// as is (the runner passes `-u`; without it a non-UTF-8 client sees `_`), and never part of an
// id, number, path or name fleetcom puts in tmux. Control characters such as \x1f are no
// better: a non-UTF-8 client gets them as `_` too. If a value ever does contain SEP the field
// count no longer divides and parseRecords throws rather than mis-assigning fields.

export const SEP = '\u241e';

/** A query: the tmux format variables to read, in order. */
export type Fields = readonly string[];

/** One parsed record: field name → raw string value as tmux printed it. */
export type RawRecord<F extends Fields> = { [K in F[number]]: string };

/** `['pane_id','@fleetcom-task']` → `#{pane_id}␞#{@fleetcom-task}␞`. */
export function buildFormat(fields: Fields): string {
  if (fields.length === 0) throw new Error('a format query needs at least one field');
  for (const f of fields) {
    if (!/^@?[A-Za-z0-9_-]+$/.test(f)) throw new Error(`not a plain format variable: ${f}`);
  }
  return fields.map((f) => `#{${f}}${SEP}`).join('');
}

/** Zips tmux's output of `buildFormat(fields)` back into one record per line. */
export function parseRecords<F extends Fields>(fields: F, output: string): RawRecord<F>[] {
  const pieces = output.split(SEP);
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
export function parseRecord<F extends Fields>(fields: F, output: string): RawRecord<F> {
  const records = parseRecords(fields, output);
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
