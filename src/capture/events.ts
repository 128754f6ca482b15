// Reading a run's signal file — claude's `<ns>/task-<id>-<run>.events`, or codex's capture
// file, which its notifier appends to — a line at a time as it grows. The files live in
// fleetcom's own 0700 namespace, but their content comes from processes fleetcom does not
// control: anything unreadable is reported and skipped, never thrown.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * A file past this size is not one the hooks wrote (they restart theirs at 256 KiB): it is
 * skipped whole, with one report, rather than read into memory.
 */
export const EVENTS_READ_LIMIT = 1024 * 1024;

export interface EventsBatch {
  /** Complete lines added since the last read, JSON-parsed; an unparsable line is left out. */
  payloads: unknown[];
  /** What was skipped and why, one phrase each (for one log line). */
  problems: string[];
}

/** Reads the lines a file gained since the last call; a file that restarted is read afresh. */
export class EventsReader {
  private offset = 0;
  private inode: number | null = null;

  constructor(readonly path: string) {}

  read(): EventsBatch {
    const problems: string[] = [];
    let fd: number;
    try {
      fd = openSync(this.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') problems.push(`cannot be opened (${code ?? String(error)})`);
      return { payloads: [], problems };
    }
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return { payloads: [], problems: ['is not a regular file'] };
      // The hooks restart a full file by renaming a new one over it: a new inode, or a shorter file.
      if (stat.ino !== this.inode || stat.size < this.offset) this.offset = 0;
      this.inode = stat.ino;
      if (stat.size - this.offset > EVENTS_READ_LIMIT) {
        problems.push(`grew by ${stat.size - this.offset} bytes at once (more than ${EVENTS_READ_LIMIT}); skipped`);
        this.offset = stat.size;
        return { payloads: [], problems };
      }
      const length = stat.size - this.offset;
      if (length === 0) return { payloads: [], problems };
      const buffer = Buffer.alloc(length);
      let got = 0;
      while (got < length) {
        const n = readSync(fd, buffer, got, length - got, this.offset + got);
        if (n === 0) break;
        got += n;
      }
      // Only whole lines: a line still being appended is read next time.
      const end = buffer.subarray(0, got).lastIndexOf(0x0a);
      if (end < 0) return { payloads: [], problems };
      this.offset += end + 1;
      return parseLines(buffer.subarray(0, end).toString('utf8'), problems);
    } finally {
      closeSync(fd);
    }
  }
}

function parseLines(text: string, problems: string[]): EventsBatch {
  const payloads: unknown[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      payloads.push(JSON.parse(line) as unknown);
    } catch {
      unreadable += 1;
    }
  }
  if (unreadable > 0) problems.push(`${unreadable} line(s) that are not JSON skipped`);
  return { payloads, problems };
}
