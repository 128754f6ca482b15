// Terminal cell arithmetic for the dashboard: how many columns a string takes, and cutting or
// padding it to an exact width. Pure. Widths follow what tmux draws: East Asian wide and
// fullwidth characters and emoji presentation take two cells, combining marks, zero-width
// joiners and variation selectors none; a grapheme cluster is never split.

// Made on first use: building it loads ICU's break data (~5 ms), which a start that never
// measures text (up --headless) should not pay.
let segmenter: Intl.Segmenter | null = null;
const graphemes = (text: string) => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text);

const WIDE: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x2e80, 0x303e], [0x3041, 0x33ff],
  [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3],
  [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6],
  [0x1f300, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x2fffd], [0x30000, 0x3fffd],
];
const ZERO = /^[\p{Mn}\p{Me}\p{Cf}\u200b-\u200f\ufe00-\ufe0f]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;
const CONTROL = /[\p{Cc}]/gu;

function codePointWidth(cp: number): number {
  const ch = String.fromCodePoint(cp);
  if (ZERO.test(ch)) return 0;
  if (EMOJI.test(ch)) return 2;
  for (const [lo, hi] of WIDE) if (cp >= lo && cp <= hi) return 2;
  return 1;
}

/** Cells one grapheme cluster takes: its base character's width; VS16 asks for emoji (2). */
function graphemeWidth(g: string): number {
  if (g.includes('\ufe0f')) return 2;
  for (const ch of g) {
    const w = codePointWidth(ch.codePointAt(0) ?? 0);
    if (w > 0) return w;
  }
  return 0;
}

/** Control characters (tabs included) become spaces, so nothing moves the cursor. */
export function printable(text: string): string {
  return text.replace(CONTROL, ' ');
}

/** Printable ASCII: one cell a character, no clusters; most of what the dashboard draws. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** Widths of short non-ASCII texts already measured: a row's glyph prefix is one of a few. */
const measured = new Map<string, number>();
const MEASURED_MAX = 1024;
const MEMO_LENGTH = 16;

/** Terminal cells `text` takes (control characters count as one, as printable() shows them). */
export function cellWidth(text: string): number {
  // Segmenting every label, line and prefix made one redraw of 500 rows cost ~250 ms, of 100
  // rows ~45 ms (npm run bench, 2 loaded cores); plain ASCII and the few repeated prefixes
  // need no segmenting.
  if (PLAIN_ASCII.test(text)) return text.length;
  const known = measured.get(text);
  if (known !== undefined) return known;
  let width = 0;
  for (const { segment } of graphemes(printable(text))) width += graphemeWidth(segment);
  if (text.length <= MEMO_LENGTH) {
    if (measured.size >= MEASURED_MAX) measured.clear();
    measured.set(text, width);
  }
  return width;
}

/**
 * `text` in exactly `width` cells: cut with `…` when longer (a wide character that would
 * straddle the edge is replaced by a space), padded with spaces when shorter.
 */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  const clean = printable(text);
  if (cellWidth(clean) <= width) return clean + ' '.repeat(width - cellWidth(clean));
  let out = '';
  let used = 0;
  for (const { segment } of graphemes(clean)) {
    const w = graphemeWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…${' '.repeat(width - 1 - used)}`;
}

/** `text` right-aligned in exactly `width` cells (cut like fit()). */
export function fitRight(text: string, width: number): string {
  const w = cellWidth(text);
  return w >= width ? fit(text, width) : ' '.repeat(width - w) + printable(text);
}
