import { isValidId } from './ids.js';

// Exit-hint scraping. The supervisor passes tmux `capture-pane -p -J`
// text, which is plain; escape sequences and carriage returns are removed anyway, so that a
// hint printed dim or in colour reads the same as the rendered screen.

/** How one agent prints its hints. */
export interface HintForms {
  /** Each followed directly by the 36-character id: `claude --resume `. */
  prefixes: readonly string[];
  /**
   * On a line containing every one of `lineMarkers`, an id written as `(<id>)` is a hint too,
   * counted after the line's prefix hints (codex's `… then select <title> (<id>)`).
   */
  parenthesised?: { lineMarkers: readonly string[] };
  /**
   * `<program> [words…]<selector><id>`: the program echoes some of its launch flags between
   * its name and the selector (claude 2.1.332: `claude --settings /p/s.json --resume <id>`).
   * The program word starts the line or follows a space or a path's `/`; the words between
   * hold no shell separator (`;`, `|`, `&`, a backtick), so a hint never spans two commands.
   */
  echoedFlags?: { program: string; selector: string };
  /** The agent's id: its length and strict check (default: section 1's uuid). */
  id?: { length: number; test: (value: string) => boolean };
}

const UUID_ID = { length: 36, test: isValidId };

const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
const CSI = /\x1b\[[0-?]*[ -/]*[@-~]/g;
const CHARSET = /\x1b[()*+][0-9A-Za-z]/g;
const ESC = /\x1b[@-_]?/g;
/** What may not follow an id: it would make the 36 characters part of a longer word. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}_-]/u;

/** Text as rendered: no escape sequences, `\n` line ends. */
export function plainText(text: string): string {
  return text.replace(OSC, '').replace(CSI, '').replace(CHARSET, '').replace(ESC, '').replace(/\r\n?/g, '\n');
}

/** The id at `start` when it passes the strict check and is followed by `after` (or a non-word character / the end). */
function idAt(line: string, start: number, after?: string, shape: NonNullable<HintForms['id']> = UUID_ID): string | null {
  const id = line.slice(start, start + shape.length);
  if (!shape.test(id)) return null;
  const next = line.slice(start + shape.length, start + shape.length + 1);
  if (after !== undefined) return next === after ? id : null;
  return next === '' || !WORD_CHAR.test(next) ? id : null;
}

function allIndexes(line: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = line.indexOf(needle); at !== -1; at = line.indexOf(needle, at + 1)) found.push(at);
  return found;
}

const SEPARATOR_FREE_WORDS = '(?: [^\\s;|&`]+)*';
const flaggedCommands = new Map<string, RegExp>();

/** Matches a line's text before a selector when it ends in `<program> [words…]` (see echoedFlags). */
function flaggedCommand(program: string): RegExp {
  let re = flaggedCommands.get(program);
  if (re === undefined) {
    re = new RegExp(`(?:^| |/)${program.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${SEPARATOR_FREE_WORDS}$`);
    flaggedCommands.set(program, re);
  }
  return re;
}

/** Ids after `selector` whose line, before it, ends in the program and separator-free words. */
function flaggedHints(line: string, echoed: NonNullable<HintForms['echoedFlags']>): Array<{ at: number; id: string }> {
  const found: Array<{ at: number; id: string }> = [];
  for (const at of allIndexes(line, echoed.selector)) {
    const id = idAt(line, at + echoed.selector.length);
    if (id !== null && flaggedCommand(echoed.program).test(line.slice(0, at))) found.push({ at, id });
  }
  return found;
}

/** Every hint of one line, in the order they count. */
function lineHints(line: string, forms: HintForms): string[] {
  const plain: Array<{ at: number; id: string }> = [];
  for (const prefix of forms.prefixes) {
    for (const at of allIndexes(line, prefix)) {
      const id = idAt(line, at + prefix.length, undefined, forms.id);
      // Positions are the id's own, so both forms order alike (a prefix hint ends at its id).
      if (id !== null) plain.push({ at: at + prefix.length, id });
    }
  }
  if (forms.echoedFlags) {
    const known = new Set(plain.map((hit) => hit.at));
    for (const hit of flaggedHints(line, forms.echoedFlags)) {
      const idStart = hit.at + forms.echoedFlags.selector.length;
      if (!known.has(idStart)) plain.push({ at: idStart, id: hit.id });
    }
  }
  plain.sort((a, b) => a.at - b.at);
  const hints = plain.map((hit) => hit.id);
  const paren = forms.parenthesised;
  if (paren && paren.lineMarkers.every((marker) => line.includes(marker))) {
    for (const at of allIndexes(line, '(')) {
      const id = idAt(line, at + 1, ')');
      if (id !== null) hints.push(id);
    }
  }
  return hints;
}

/** The last valid hint in the text, or null. */
export function lastHint(text: string, forms: HintForms): string | null {
  let last: string | null = null;
  for (const line of plainText(text).split('\n')) {
    const hints = lineHints(line, forms);
    if (hints.length > 0) last = hints[hints.length - 1] ?? last;
  }
  return last;
}
