// How fleetcom converses with an agent in its pane: how a message is typed into its composer,
// which of its own signals says a prompt was taken and a turn ended (with the reply), and how
// its store holds one conversation's prompts and replies. Pure: payloads, screen text and the
// roots given in, facts out. Each agent's facts live in its folder (harness/<agent>/conversing.ts).
import { isJsonObject } from './json-shape.js';

/** What one signal payload says of a turn. */
export type TurnMark =
  /**
   * A prompt was taken (its text, when the signal carries it): a turn starts. `id`: the agent's
   * own id of the prompt, carried by the end of its turn too (claude's prompt_id). `joins`: a
   * prompt taken while a turn runs is answered in that turn, which ends once for both
   * (measured: opencode's and kilo's queue, pi's steer).
   */
  | { kind: 'start'; sessionId: string; prompt: string | null; id?: string; joins?: true }
  /**
   * A turn ended, with the reply the signal carries. `opens`: the agent signals no start (codex),
   * so an end with no turn open is a whole turn; `prompts`: the messages it names as this turn's.
   */
  | { kind: 'end'; sessionId: string; reply: string | null; opens?: boolean; prompts?: readonly string[]; id?: string };

/** One turn as the agent's store holds it. */
export interface StoredTurn {
  prompt: string;
  /** The last reply of the turn (its final message), null while it has none. */
  reply: string | null;
}

export type StoredTurns =
  | { kind: 'read'; file: string; turns: StoredTurn[] }
  | { kind: 'none'; why: string };

/** What the composer shows: its text ('' when empty), or null where no composer is on the screen (starting, a dialog, a menu). */
export type ComposerRead = string | null;

export interface Conversing {
  /**
   * The client turns bracketed paste on at its prompt, so a pasted message, newlines included,
   * is one message: tmux's `paste-buffer -p` frames it only when the pane asked.
   */
  bracketedPaste: boolean;
  /** ms between the paste and Enter: an Enter that follows text too soon is taken as part of it (codex's paste burst). */
  enterDelayMs: number;
  /**
   * How fleetcom learns that the agent took a message: its prompt event carrying the text
   * (`event`), a user record appearing in its store (`store`), or nothing (`none`).
   */
  confirms: 'event' | 'store' | 'none';
  /** Where the reply of a turn is carried at its end ('Stop hook last_assistant_message'), null when no signal carries it. */
  replySignal: string | null;
  /** What a message typed while it works becomes (as measured, or 'unknown'). */
  whileBusy: 'queued' | 'steers' | 'unknown';
  /** The largest paste it takes as the message itself, and what it does with a larger one. */
  largest?: { bytes: number; why: string };
  /** The turn mark of one payload of the agent's signal file (its attention rule's file), or null. */
  turnOf(payload: unknown): TurnMark | null;
  /** The composer's text on a screen (`capture-pane -p -J`), or null when none shows. */
  composer(screen: string): ComposerRead;
  /**
   * The file whose new lines name the prompts it takes (`confirms: 'store'`, or `'event'` for a
   * task launched without the channel that carries the event), or null while it has none.
   */
  promptFile?(home: string, cwd: string, id: string): string | null;
  /** The prompt one line of that file records, or null. */
  promptOfLine?(line: string): string | null;
  /** One conversation's turns as its store holds them, oldest first. */
  storedTurns(home: string, cwd: string, id: string): StoredTurns;
}

/** Longest prompt or reply kept from a signal: larger texts are cut (a forged payload must not fill memory). */
export const TEXT_MAX = 1024 * 1024;

/** A string field of a payload, bounded; null when absent or not a string. */
export function textField(payload: unknown, key: string): string | null {
  if (!isJsonObject(payload)) return null;
  const value = payload[key];
  return typeof value === 'string' ? value.slice(0, TEXT_MAX) : null;
}

/** A list of strings of a payload, each bounded; [] when absent or malformed. */
export function textList(payload: unknown, key: string): string[] {
  if (!isJsonObject(payload)) return [];
  const value = payload[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').map((v) => v.slice(0, TEXT_MAX)) : [];
}

/**
 * The text of message content as the agents write it: a string, or parts of which the text
 * ones count (`{type: "text", text}`, gemini's `{text}`); null when there is no text.
 */
export function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts = content.flatMap((part) => {
    if (!isJsonObject(part) || typeof part.text !== 'string') return [];
    return part.type === undefined || part.type === 'text' ? [part.text] : [];
  });
  return texts.length === 0 ? null : texts.join('');
}

/**
 * A message as compared: line ends as LF, trailing spaces of each line and blank lines at
 * either end gone (what a composer drops or a hook trims). Nothing else changes.
 */
export function normalizeMessage(text: string): string {
  return text.replace(/\r\n?/g, '\n').split('\n').map((line) => line.replace(/[ \t]+$/, '')).join('\n').replace(/^\n+|\n+$/g, '');
}

/** The agent's record of a prompt is this message. */
export function sameMessage(recorded: string, sent: string): boolean {
  return normalizeMessage(recorded) === normalizeMessage(sent);
}

/** Turns from an ordered list of user prompts and replies: each reply belongs to the prompt before it, the last one counting. */
export function turnsOf(entries: ReadonlyArray<{ role: 'user' | 'assistant'; text: string }>): StoredTurn[] {
  const turns: StoredTurn[] = [];
  for (const entry of entries) {
    if (entry.role === 'user') turns.push({ prompt: entry.text, reply: null });
    else {
      const last = turns.at(-1);
      if (last !== undefined) last.reply = entry.text;
    }
  }
  return turns;
}

/** How a composer line looks: its prefix (after any box border), and the placeholders an empty one shows. */
export interface ComposerLine {
  prefix: RegExp;
  placeholders?: readonly string[];
  /** Text of a dialog or menu: shown below the last composer line (or with none), the read is null. */
  dialogs?: readonly string[];
  /** How many lines from the bottom the composer may be (help and status lines below it). */
  within?: number;
  /** The composer is a box of rows each with the prefix (opencode's `┃`): the rows of the lowest block, joined. */
  block?: boolean;
  /** A row that marks the block as messages queued behind a turn, not a draft (opencode's `QUEUED`). */
  queued?: RegExp;
  /** A row of the block that is not its text (opencode's agent and model under it): read as blank. */
  skip?: RegExp;
}

/** A box border at either end of a line (`│ > text │`, `┃ text`). */
const BORDER = /^[\s│┃|]*|[\s│┃|]*$/g;

/** A dialog's or menu's option line: `❯ 1. Yes`, `  2. No`, `● 1. Allow once`. */
const OPTION = /^[\s│┃|]*([❯›>●]\s*)?\d+\.\s/;

/** Zero-width characters a composer draws beside its text (qwen 0.24.4 appends U+200B). */
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;

/** The dialog-free bottom of a screen: the last `within` lines, or what follows a dialog's text and options there. */
function bottomOf(screen: string, within: number, dialogs: readonly string[] | undefined): string[] {
  const lines = screen.replace(ZERO_WIDTH, '').replace(/\s+$/, '').split('\n');
  const window = lines.slice(-within);
  const dialogAt = window.findLastIndex((line) => dialogs?.some((marker) => line.includes(marker)) === true);
  return dialogAt < 0 ? window : window.slice(dialogAt + 1).filter((line) => !OPTION.test(line));
}

/**
 * Reads a composer drawn as one line with a prefix: the lowest such line within `within` lines
 * of the bottom. A dialog's text there means no composer, unless one shows below the dialog and
 * its options (the dialog is then history): its options (`❯ 1. Yes`) look like a composer line.
 */
export function composerLine(rule: ComposerLine): (screen: string) => ComposerRead {
  const textOf = (row: string): string | null => {
    // The prefix may be a border itself (opencode's `┃`): tried before the borders go.
    const raw = row.trim();
    const line = rule.prefix.exec(raw)?.index === 0 ? raw : raw.replace(BORDER, '');
    const match = rule.prefix.exec(line);
    if (match === null || match.index !== 0) return null;
    const text = line.slice(match[0].length).replace(BORDER, '').trim();
    return rule.skip?.test(text) ? '' : text;
  };
  return (screen) => {
    const bottom = bottomOf(screen, rule.within ?? 8, rule.dialogs);
    for (let i = bottom.length - 1; i >= 0; i--) {
      let text = textOf(bottom[i] ?? '');
      if (text === null) continue;
      // A box's rows above, up to its top: a draft may be on any of them, blank ones below it.
      for (let j = i - 1; rule.block === true && j >= 0; j--) {
        const above = textOf(bottom[j] ?? '');
        if (above === null) break;
        text = [above, text].filter((t) => t !== '').join('\n');
      }
      if (rule.queued !== undefined && text.split('\n').some((row) => rule.queued?.test(row))) return '';
      return rule.placeholders?.some((p) => text.startsWith(p)) ? '' : text;
    }
    return null;
  };
}

/** A rule line: a row of box-drawing dashes. */
const RULE = /^\s*[─━]{8,}\s*$/;

/**
 * Reads a composer drawn as bare rows between two rules (pi 1.6.0: no prompt character; an
 * empty composer is a blank row): the rows between the lowest two rules within `within` lines.
 */
export function composerBetweenRules(rule: { dialogs?: readonly string[]; within?: number }): (screen: string) => ComposerRead {
  return (screen) => {
    const bottom = bottomOf(screen, rule.within ?? 12, rule.dialogs);
    const lower = bottom.findLastIndex((line) => RULE.test(line));
    const upper = lower < 0 ? -1 : bottom.slice(0, lower).findLastIndex((line) => RULE.test(line));
    if (upper < 0) return null;
    return bottom.slice(upper + 1, lower).map((line) => line.replace(BORDER, '').trim()).filter((t) => t !== '').join('\n');
  };
}
