import * as fs from 'node:fs';

// The only file-system reads of the resume core. None of them throws: a file that vanished,
// cannot be opened, is not a regular file or is torn is reported, never raised. Files are
// opened non-blocking and checked with fstat, so a FIFO planted at a path cannot hang a save.

export type FileText =
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'text'; text: string };

const CHUNK = 64 * 1024;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException | null;
  return e?.code ?? (e instanceof Error ? e.message : String(error));
}

/** Opens a regular file for reading (never blocking on a FIFO); the callback gets its descriptor and its size then. */
export function withRegularFile<T>(path: string, use: (fd: number, size: number) => T): T | { kind: 'missing' } | { kind: 'unreadable'; reason: string } {
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    return isMissing(error) ? { kind: 'missing' } : { kind: 'unreadable', reason: describe(error) };
  }
  try {
    const stats = fs.fstatSync(fd);
    if (stats.isDirectory()) return { kind: 'unreadable', reason: 'EISDIR' };
    if (!stats.isFile()) return { kind: 'unreadable', reason: 'not a regular file' };
    return use(fd, stats.size);
  } catch (error) {
    return { kind: 'unreadable', reason: describe(error) };
  } finally {
    fs.closeSync(fd);
  }
}

/** The whole file as UTF-8 text. */
export function readTextFile(path: string): FileText {
  return withRegularFile(path, (fd): FileText => ({ kind: 'text', text: fs.readFileSync(fd, 'utf8') }));
}

/**
 * The file's first line (without its `\n`, and without a `\r` before it) when it is at most
 * `maxBytes` long; null when the file is missing, unreadable or its first line is longer.
 * Reads in chunks up to the first newline, so a generous limit costs only the line's length.
 */
export function readFirstLine(path: string, maxBytes: number): string | null {
  const result = withRegularFile(path, (fd) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let end = -1;
    while (end === -1 && total <= maxBytes) {
      // Only the bytes read are ever looked at: no need to zero the rest.
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      const n = fs.readSync(fd, chunk, 0, chunk.length, total);
      if (n === 0) break;
      const newline = chunk.subarray(0, n).indexOf(0x0a);
      chunks.push(chunk.subarray(0, newline === -1 ? n : newline));
      if (newline !== -1) end = total + newline;
      total += n;
    }
    const length = end === -1 ? total : end;
    if (length > maxBytes) return { line: null };
    const line = Buffer.concat(chunks).toString('utf8');
    return { line: line.endsWith('\r') ? line.slice(0, -1) : line };
  });
  return 'line' in result ? result.line : null;
}

/**
 * Whether some line of the file satisfies `test`, reading in chunks and stopping at the first
 * match (transcripts can be large; their first user record is near the top). False when the
 * file is missing or unreadable.
 */
export function someLine(path: string, test: (line: string) => boolean): boolean {
  const result = withRegularFile(path, (fd) => {
    const chunk = Buffer.alloc(CHUNK);
    let pending: Buffer[] = [];
    let position = 0;
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, CHUNK, position);
      if (n === 0) break;
      position += n;
      let start = 0;
      let newline = chunk.indexOf(0x0a, start);
      while (newline !== -1 && newline < n) {
        pending.push(chunk.subarray(start, newline));
        if (test(Buffer.concat(pending).toString('utf8'))) return { found: true };
        pending = [];
        start = newline + 1;
        newline = chunk.indexOf(0x0a, start);
      }
      if (start < n) pending.push(Buffer.from(chunk.subarray(start, n)));
    }
    return { found: pending.length > 0 && test(Buffer.concat(pending).toString('utf8')) };
  });
  return 'found' in result && result.found;
}

/**
 * The path of an entry `listDir(dir)` gave: its name holds no `/` and is never `.` or `..`,
 * so nothing needs normalising. path.join's normalising scan was 12 ms of a 20 000-file
 * history listing on the 2-core machine.
 */
export function entryPath(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

/** Directory entries, or none when the directory is missing or unreadable. */
export function listDir(path: string): fs.Dirent[] {
  try {
    return fs.readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** lstat without throwing. */
export function statOrNull(path: string): fs.Stats | null {
  try {
    return fs.lstatSync(path);
  } catch {
    return null;
  }
}
