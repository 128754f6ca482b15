import * as fs from 'node:fs';
import { withRegularFile } from './fs-read.js';
import type { HistoryFile, HistoryMatch, HistorySearch } from './history.js';
import { jsonObjectOf, type JsonObject } from './json-shape.js';

// Bounded reads of store files for `history`: the head and the tail of a transcript by seeking,
// and a line stream that drops over-long lines, so a 30 MB single line, a link to /dev/zero or
// a FIFO named like a transcript costs neither unbounded memory nor a hang.

const CHUNK = 64 * 1024;
/** The longest line a search parses; a longer one is skipped (its bytes are still streamed past). */
export const SEARCH_LINE_MAX = 8 * 1024 * 1024;

/** The complete lines at a file's start and end. */
export interface HeadTail {
  /** The whole file was read (it fits in head + tail): `head` then holds every line. */
  whole: boolean;
  /** Complete lines from the start (a last line without `\n` only when whole: a torn record). */
  head: string[];
  /** Complete lines of the last `tailBytes` (the first, cut one dropped); empty when whole. */
  tail: string[];
}

export type HeadTailRead = HeadTail | { kind: 'missing' } | { kind: 'unreadable'; reason: string };

function linesOf(buffer: Buffer, dropFirst: boolean, keepLast: boolean): string[] {
  const lines = buffer.toString('utf8').split('\n');
  if (dropFirst) lines.shift();
  if (!keepLast) lines.pop();
  return lines.filter((line) => line !== '');
}

/**
 * The buffer head and tail reads land in, kept between files: it is decoded to strings before
 * the read returns. A fresh 27–128 KiB buffer per file showed in a cold listing's profile, in
 * its allocation and the collections it caused (2 000 files, the 2-core machine).
 */
let scratch = Buffer.allocUnsafe(0);
const SCRATCH_MAX = 1024 * 1024;

function scratchOf(bytes: number): Buffer {
  if (bytes > SCRATCH_MAX) return Buffer.allocUnsafe(bytes);
  if (scratch.length < bytes) scratch = Buffer.allocUnsafe(Math.max(bytes, 256 * 1024));
  return scratch;
}

/** The first `headBytes` and last `tailBytes` of a regular file, as complete lines; the middle is never read. */
export function readHeadTail(path: string, headBytes: number, tailBytes: number): HeadTailRead {
  return withRegularFile(path, (fd, size): HeadTail => {
    const buffer = scratchOf(Math.min(size, headBytes + tailBytes));
    if (size <= headBytes + tailBytes) {
      const n = readFully(fd, buffer.subarray(0, size), 0);
      return { whole: true, head: linesOf(buffer.subarray(0, n), false, true), tail: [] };
    }
    const headRead = readFully(fd, buffer.subarray(0, headBytes), 0);
    const head = linesOf(buffer.subarray(0, headRead), false, false);
    const tailRead = readFully(fd, buffer.subarray(0, tailBytes), size - tailBytes);
    return { whole: false, head, tail: linesOf(buffer.subarray(0, tailRead), true, true) };
  });
}

function readFully(fd: number, buffer: Buffer, position: number): number {
  let total = 0;
  while (total < buffer.length) {
    const n = fs.readSync(fd, buffer, total, buffer.length - total, position + total);
    if (n === 0) break;
    total += n;
  }
  return total;
}

export type LineStream = { kind: 'done'; longLines: number } | { kind: 'missing' } | { kind: 'unreadable'; reason: string };

/**
 * Each line of the file, in order, until `onLine` returns true. Lines longer than `maxLine`
 * bytes are skipped whole (counted), so memory stays within one chunk plus `maxLine`.
 */
export function streamLines(path: string, maxLine: number, onLine: (line: string) => boolean | void): LineStream {
  return withRegularFile(path, (fd): LineStream => {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let dropping = false;
    let longLines = 0;
    let position = 0;
    const finish = (piece: Buffer): boolean => {
      if (dropping) {
        dropping = false;
        return false;
      }
      const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
      pending = [];
      pendingBytes = 0;
      return onLine(line.toString('utf8')) === true;
    };
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, CHUNK, position);
      if (n === 0) break;
      position += n;
      let start = 0;
      for (let newline = chunk.indexOf(0x0a, start); newline !== -1 && newline < n; newline = chunk.indexOf(0x0a, start)) {
        if (finish(chunk.subarray(start, newline))) return { kind: 'done', longLines };
        start = newline + 1;
      }
      if (start < n && !dropping) {
        pendingBytes += n - start;
        if (pendingBytes > maxLine) {
          pending = [];
          pendingBytes = 0;
          dropping = true;
          longLines += 1;
        } else pending.push(Buffer.from(chunk.subarray(start, n)));
      }
    }
    if (pending.length > 0) finish(Buffer.alloc(0));
    return { kind: 'done', longLines };
  });
}

/** A JSON needle as it may appear verbatim in a JSON line (no character JSON would escape). */
function verbatimInJson(needle: string): boolean {
  return !/["\\\u0000-\u001f\u007f-\uffff]/.test(needle);
}

/** `…the words around the match…`, on one line, about `width` characters. */
export function snippetOf(text: string, lowerNeedle: string, width = 80): string {
  const flat = text.replace(/\s+/g, ' ');
  const at = flat.toLowerCase().indexOf(lowerNeedle);
  if (at === -1) return flat.slice(0, width);
  const before = Math.max(0, at - Math.floor((width - lowerNeedle.length) / 2));
  const piece = flat.slice(before, before + width);
  return `${before > 0 ? '…' : ''}${piece}${before + width < flat.length ? '…' : ''}`;
}

/**
 * Streams one single-conversation file for `needle` in the texts `textsOf` takes from each
 * JSON record (the user's and the agent's messages, never ids or metadata). Stops at the
 * first match. Lines that cannot hold the needle verbatim are not parsed.
 */
export function searchJsonLines(file: HistoryFile, id: string, needle: string, textsOf: (record: JsonObject) => string[]): HistorySearch {
  const lower = needle.toLowerCase();
  const prefilter = verbatimInJson(lower);
  let found: HistoryMatch | null = null;
  const read = streamLines(file.path, SEARCH_LINE_MAX, (line) => {
    if (prefilter && !line.toLowerCase().includes(lower)) return false;
    const record = jsonObjectOf(line);
    if (record === null) return false;
    const text = textsOf(record).find((t) => t.toLowerCase().includes(lower));
    if (text === undefined) return false;
    found = { id, snippet: snippetOf(text, lower) };
    return true;
  });
  if (read.kind === 'missing') return { kind: 'skipped', why: 'it vanished' };
  if (read.kind === 'unreadable') return { kind: 'skipped', why: read.reason };
  return { kind: 'matches', matches: found === null ? [] : [found] };
}

/** The file as a HistoryFile when it is a regular file (lstat: a link is never followed). */
export function historyFileOf(path: string): HistoryFile | { why: string } {
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(path);
  } catch (error) {
    return { why: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
  if (stats.isSymbolicLink()) return { why: 'a symbolic link (never followed)' };
  if (!stats.isFile()) return { why: 'not a regular file' };
  return { path, size: stats.size, mtimeMs: Math.floor(stats.mtimeMs) };
}

/** A message content as agents write it: a string, or parts `{text}`; the texts only. */
export function textsOfContent(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) => {
    if (typeof part === 'string') return [part];
    if (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string') return [(part as { text: string }).text];
    return [];
  });
}
