// For an agent whose prompt signal does not reach fleetcom (codex, gemini, qwen): the lines
// its store file gains while a send waits, read from where the file ended when the send began.
// The file is the agent's, so it is input: a file that is not regular is not read, one that
// shrank (rewritten) is read again from its start, a line still being written waits.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** More than this gained between two looks is not read (a send's own prompt is far smaller than a whole store). */
const READ_MAX = 8 * 1024 * 1024;

export class StoreWatch {
  private file: string | null = null;
  private offset = 0;

  /** `find`: the file now (it may not exist before the first message); `prompt`: what one line records. */
  constructor(private readonly find: () => string | null, private readonly prompt: (line: string) => string | null) {
    this.file = find();
    this.offset = this.file === null ? 0 : (sizeOf(this.file) ?? 0);
  }

  /** The prompts recorded since the last look. */
  prompts(): string[] {
    if (this.file === null) {
      this.file = this.find();
      this.offset = 0; // born after the send began: all of it is new
      if (this.file === null) return [];
    }
    const read = readFrom(this.file, this.offset);
    if (read === null) return [];
    this.offset = read.offset;
    return read.lines.map(this.prompt).filter((p): p is string => p !== null);
  }
}

function sizeOf(file: string): number | null {
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const stat = fstatSync(fd);
      return stat.isFile() ? stat.size : null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** Whole lines after `offset`, and the offset after the last of them; null when nothing can be read. */
function readFrom(file: string, offset: number): { lines: string[]; offset: number } | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    const from = stat.size < offset ? 0 : offset;
    const length = Math.min(stat.size - from, READ_MAX);
    if (length <= 0) return { lines: [], offset: from };
    const buffer = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buffer, got, length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    const end = buffer.subarray(0, got).lastIndexOf(0x0a);
    if (end < 0) return { lines: [], offset: from };
    return { lines: buffer.subarray(0, end).toString('utf8').split('\n'), offset: from + end + 1 };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
