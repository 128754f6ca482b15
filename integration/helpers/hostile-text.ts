// Deterministic hostile strings for property tests: characters from every Unicode general
// category, the separators and escapes tmux, JSON and shells care about, and a few long ones.
// Seeded (mulberry32), so a failure names a seed that reproduces it.
//
// Never drawn: U+0000 (no argv or environment can carry it) and lone surrogates (category Cs;
// UTF-8 cannot encode them, so no process can be handed one).

/** One or more examples per general category, then the characters with a meaning somewhere. */
export const HOSTILE_CHARS: readonly string[] = [
  'A', 'é', 'ǅ', 'ʰ', '中', '\u0301', '\u0903', '\u20dd', '٣', 'Ⅻ', '½', // L*, M*, N*
  '_', '—', '(', ')', '«', '»', '!', '+', '€', '^', '©', // P*, S*
  '\u00a0', '\u2028', '\u2029', ' ', // Z*
  '\u0001', '\n', '\t', '\r', '\u001b', '\u007f', '\u0085', // Cc
  '\u200f', '\u202e', '\u200b', '\ufeff', // Cf: RTL mark, RTL override, zero width, BOM
  '\ue000', '\u0378', '\uffff', // Co, Cn
  '😀', '👩‍👩‍👧', '🇫🇷', // emoji: astral, ZWJ sequence, flag
  '\u241e', '#', ';', '%', '$', '`', "'", '"', '\\', '~', '*', '{', '}', '[', ']', '&', '|', '<', '>', '=', ':', '-', '/',
];

/** Runs of text tmux, shells or JSON would interpret. */
const HOSTILE_RUNS: readonly string[] = ['#[fg=red]', '#{pane_pid}', '##', '$(id)', '%1', '\\u0000', '${HOME}', '\u241e\u241e', '-x', '--'];

export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A string of about `length` characters (at least one), hostile pieces and plain letters mixed. */
export function hostileText(random: () => number, length: number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  let text = '';
  while (Array.from(text).length < Math.max(1, length)) text += random() < 0.15 ? pick(HOSTILE_RUNS) : pick(HOSTILE_CHARS);
  return text;
}

/** `text` repeated and cut to at most `bytes` UTF-8 bytes, never splitting a character. */
export function fillBytes(text: string, bytes: number): string {
  let out = '';
  for (const ch of Array.from(text.repeat(Math.ceil((bytes * 2) / Math.max(1, text.length)) + 1))) {
    if (Buffer.byteLength(out + ch) > bytes) break;
    out += ch;
  }
  return out;
}
