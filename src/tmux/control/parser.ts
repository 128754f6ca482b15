// What a control-mode client prints, read as events. Pure: bytes in, events out.
//
// tmux writes one line per message. A command's output comes between `%begin T N F` and
// `%end T N F` (or `%error T N F`, the same three numbers: time, command number, flags 1 for a
// command this client sent, 0 for one tmux ran for it, a hook's); everything else is a
// notification starting with `%`. Nothing in a block is escaped: `capture-pane` prints a
// pane's lines as they are, and a program can print `%end 1700000000 42 1` or `%window-close
// @3` on its screen. So inside a block only the exact `%end`/`%error` of its own `%begin`
// closes it, and every other line is output; outside a block a line that is not a `%`
// notification, an `%end` with no block, or a block number that does not grow means the
// stream is no longer what tmux wrote (or we lost our place in it): a `desync` event, after
// which the parser reads nothing more and the connection must be dropped. `%output` values
// escape bytes below 32 and `\` as octal `\ooo`; they are decoded to the pane's own bytes.

/** A line longer than this is not tmux's (its longest is a command's one-line output). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export type ControlEvent =
  /** A command's output block. `fromClient`: a command this client sent (flags 1). */
  | { kind: 'block'; time: number; number: number; fromClient: boolean; ok: boolean; lines: string[] }
  | { kind: 'output'; pane: string; data: Buffer }
  | { kind: 'window'; change: 'add' | 'close' | 'unlinked-add' | 'unlinked-close'; window: string }
  | { kind: 'pane-mode'; pane: string }
  | { kind: 'pause' | 'continue'; pane: string }
  | { kind: 'subscription'; name: string; session: string; window: string; pane: string | null; value: string }
  | { kind: 'session-changed'; session: string }
  | { kind: 'exit'; reason: string | null }
  /** A notification fleetcom has no use for (or one too malformed to use). */
  | { kind: 'notice'; name: string }
  | { kind: 'desync'; why: string };

interface OpenBlock {
  guard: string;
  time: number;
  number: number;
  fromClient: boolean;
  lines: string[];
}

const GUARD = /^%(begin|end|error) (\d+) (\d+) (\d+)$/;
const PANE = /^%\d+$/;
const WINDOW = /^@\d+$/;
const SESSION = /^\$\d+$/;

export class ControlParser {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private block: OpenBlock | null = null;
  private lastNumber: number | null = null;
  private broken = false;

  /** The events the bytes complete; a line cut by the chunk's end waits for the next chunk. */
  push(chunk: Buffer): ControlEvent[] {
    const events: ControlEvent[] = [];
    if (this.broken) return events;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      if (nl < 0) break;
      const piece = chunk.subarray(from, nl);
      const line = this.pendingBytes === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.pending = [];
      this.pendingBytes = 0;
      from = nl + 1;
      const event = this.line(line);
      if (event !== null) events.push(event);
      if (this.broken) return events;
    }
    if (from < chunk.length) {
      this.pending.push(chunk.subarray(from));
      this.pendingBytes += chunk.length - from;
      if (this.pendingBytes > MAX_LINE_BYTES) events.push(this.desync(`a line of more than ${MAX_LINE_BYTES} bytes`));
    }
    return events;
  }

  /** Inside a command's output block (what was read so far ends in one). */
  get inBlock(): boolean {
    return this.block !== null;
  }

  private line(raw: Buffer): ControlEvent | null {
    if (this.block !== null) return this.blockLine(raw);
    if (raw[0] !== 0x25 /* % */) return this.desync(`a line outside any block that is not a notification: ${preview(raw)}`);
    // %output values are bytes: decoded without a round trip through a string.
    if (startsWith(raw, '%output ')) return output(raw, 8, false) ?? { kind: 'notice', name: 'output' };
    if (startsWith(raw, '%extended-output ')) return output(raw, 17, true) ?? { kind: 'notice', name: 'extended-output' };
    const text = raw.toString('utf8');
    const guard = GUARD.exec(text);
    if (guard !== null) {
      const [, kind, time, number, flags] = guard;
      if (kind !== 'begin') return this.desync(`%${kind} outside any block: ${preview(raw)}`);
      const n = Number(number);
      if (this.lastNumber !== null && !follows(n, this.lastNumber)) return this.desync(`command number ${n} after ${this.lastNumber}`);
      this.lastNumber = n;
      this.block = { guard: ` ${time} ${number} ${flags}`, time: Number(time), number: n, fromClient: flags !== '0', lines: [] };
      return null;
    }
    if (/^%(begin|end|error)( |$)/.test(text)) return this.desync(`a malformed guard line: ${preview(raw)}`);
    return notification(text);
  }

  private blockLine(raw: Buffer): ControlEvent | null {
    const block = this.block!;
    // Only the guard with this block's own time, number and flags ends it.
    if (raw[0] === 0x25 && (raw.length === 4 + block.guard.length || raw.length === 6 + block.guard.length)) {
      const text = raw.toString('latin1');
      const ok = text === `%end${block.guard}`;
      if (ok || text === `%error${block.guard}`) {
        this.block = null;
        return { kind: 'block', time: block.time, number: block.number, fromClient: block.fromClient, ok, lines: block.lines };
      }
    }
    block.lines.push(raw.toString('utf8'));
    return null;
  }

  private desync(why: string): ControlEvent {
    this.broken = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.block = null;
    return { kind: 'desync', why };
  }
}

/** tmux numbers commands from one counter: each block's number is past the last (it wraps at 2^32). */
function follows(n: number, last: number): boolean {
  return n > last || (last > 0xf0000000 && n < 0x10000000);
}

function startsWith(raw: Buffer, prefix: string): boolean {
  return raw.length >= prefix.length && raw.toString('latin1', 0, prefix.length) === prefix;
}

function preview(raw: Buffer): string {
  return JSON.stringify(raw.toString('utf8', 0, Math.min(raw.length, 80)));
}

/**
 * `%output %P value` or `%extended-output %P age … : value`; null when the line is not in
 * that shape. The value starts after the pane (or after the first ` : `).
 */
function output(raw: Buffer, at: number, extended: boolean): ControlEvent | null {
  const space = raw.indexOf(0x20, at);
  const paneEnd = space < 0 ? raw.length : space;
  const pane = raw.toString('latin1', at, paneEnd);
  if (!PANE.test(pane)) return null;
  let valueAt = space < 0 ? raw.length : space + 1;
  if (extended) {
    const colon = raw.indexOf(' : ', paneEnd, 'latin1');
    if (colon < 0) {
      // Nothing after the age: an empty value (tmux writes ` : ` before even an empty one).
      if (!/^ \d+( .*)? :$/s.test(raw.toString('latin1', paneEnd))) return null;
      valueAt = raw.length;
    } else valueAt = colon + 3;
  }
  return { kind: 'output', pane, data: unescapeOctal(raw.subarray(valueAt)) };
}

/** `\ooo` → the byte; every other byte as it is (tmux escapes only bytes below 32 and `\`). */
export function unescapeOctal(value: Buffer): Buffer {
  let slash = value.indexOf(0x5c);
  if (slash < 0) return Buffer.from(value);
  const out = Buffer.allocUnsafe(value.length);
  let length = 0;
  let from = 0;
  while (slash >= 0) {
    length += value.copy(out, length, from, slash);
    const a = value[slash + 1];
    const b = value[slash + 2];
    const c = value[slash + 3];
    if (isOctal(a) && isOctal(b) && isOctal(c)) {
      out[length++] = ((a! - 48) * 64 + (b! - 48) * 8 + (c! - 48)) & 0xff;
      from = slash + 4;
    } else {
      out[length++] = 0x5c;
      from = slash + 1;
    }
    slash = value.indexOf(0x5c, from);
  }
  length += value.copy(out, length, from);
  return out.subarray(0, length);
}

function isOctal(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 48 && byte <= 55;
}

function notification(text: string): ControlEvent {
  const space = text.indexOf(' ');
  const name = text.slice(1, space < 0 ? undefined : space);
  const words = space < 0 ? [] : text.slice(space + 1).split(' ');
  const [first = '', second = ''] = words;
  switch (name) {
    case 'window-add':
    case 'window-close':
    case 'unlinked-window-add':
    case 'unlinked-window-close': {
      if (words.length !== 1 || !WINDOW.test(first)) break;
      const change = name === 'window-add' ? 'add' : name === 'window-close' ? 'close' : name === 'unlinked-window-add' ? 'unlinked-add' : 'unlinked-close';
      return { kind: 'window', change, window: first };
    }
    case 'pane-mode-changed':
      if (words.length === 1 && PANE.test(first)) return { kind: 'pane-mode', pane: first };
      break;
    case 'pause':
    case 'continue':
      if (words.length === 1 && PANE.test(first)) return { kind: name, pane: first };
      break;
    case 'session-changed':
      if (SESSION.test(first)) return { kind: 'session-changed', session: first };
      break;
    case 'exit':
      return { kind: 'exit', reason: space < 0 ? null : text.slice(space + 1) };
    case 'subscription-changed':
      return subscription(text.slice(space + 1), first, second) ?? { kind: 'notice', name };
  }
  return { kind: 'notice', name };
}

/** `name $S @W idx %P … : value` (a pane's); a session's or window's has `-` for what it lacks. */
function subscription(rest: string, name: string, session: string): ControlEvent | null {
  const colon = rest.indexOf(' : ');
  const head = (colon < 0 ? rest.replace(/ :$/, '') : rest.slice(0, colon)).split(' ');
  const value = colon < 0 ? '' : rest.slice(colon + 3);
  if (colon < 0 && !rest.endsWith(' :')) return null;
  const [, , window = '', , pane = ''] = head;
  if (name === '' || !SESSION.test(session)) return null;
  return { kind: 'subscription', name, session, window: WINDOW.test(window) ? window : '', pane: PANE.test(pane) ? pane : null, value };
}
