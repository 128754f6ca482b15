import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HarnessName, HistoryEntry, HistoryFile } from '../harness/index.js';

// The rows each store file gave, keyed by agent, path, size and mtime: a file whose three are
// unchanged is not read again. The cache is input like any other file: one that is not exactly
// this shape (corrupt, torn, another program's, another version's) is dropped whole and
// rebuilt; it is written to a temp file and renamed, so a reader never sees half of it.

const FORMAT = 'fleetcom-history-cache';
const VERSION = 1;
/** A cache larger than this is not read (rebuilt instead): it cannot be ours for any real store. */
const MAX_BYTES = 256 * 1024 * 1024;

interface CachedFile {
  size: number;
  mtimeMs: number;
  rows: HistoryEntry[];
}

export class HistoryCache {
  private readonly entries: Map<string, CachedFile>;
  private readonly used = new Set<string>();
  private changed = false;
  /** Why the file on disk was not used (null: it was, or there was none). */
  readonly discarded: string | null;

  private constructor(readonly file: string | null, entries: Map<string, CachedFile>, discarded: string | null) {
    this.entries = entries;
    this.discarded = discarded;
  }

  /** No file: nothing is kept between runs. */
  static none(): HistoryCache {
    return new HistoryCache(null, new Map(), null);
  }

  static load(file: string): HistoryCache {
    let text: string;
    try {
      const stats = fs.lstatSync(file);
      if (!stats.isFile()) return new HistoryCache(file, new Map(), 'not a regular file');
      if (stats.size > MAX_BYTES) return new HistoryCache(file, new Map(), `larger than ${MAX_BYTES} bytes`);
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return new HistoryCache(file, new Map(), code === 'ENOENT' ? null : (code ?? String(error)));
    }
    const parsed = parseCache(text);
    return typeof parsed === 'string' ? new HistoryCache(file, new Map(), parsed) : new HistoryCache(file, parsed, null);
  }

  /** The rows cached for this file, when its size and mtime are those cached. */
  get(agent: HarnessName, file: HistoryFile): HistoryEntry[] | null {
    const key = keyOf(agent, file.path);
    const hit = this.entries.get(key);
    if (hit === undefined || hit.size !== file.size || hit.mtimeMs !== file.mtimeMs) return null;
    this.used.add(key);
    return hit.rows;
  }

  set(agent: HarnessName, file: HistoryFile, rows: HistoryEntry[]): void {
    const key = keyOf(agent, file.path);
    this.entries.set(key, { size: file.size, mtimeMs: file.mtimeMs, rows });
    this.used.add(key);
    this.changed = true;
  }

  /**
   * Writes the cache when it changed: the entries of this run, and those of files it did not
   * look at (another scope's); entries of files gone are dropped by `forget`.
   */
  save(): string | null {
    if (this.file === null || (!this.changed && this.discarded === null)) return null;
    const files: Record<string, CachedFile> = Object.fromEntries(this.entries);
    const text = JSON.stringify({ format: FORMAT, version: VERSION, files });
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(temp, text, { mode: 0o600 });
      fs.renameSync(temp, this.file);
      return null;
    } catch (error) {
      fs.rmSync(temp, { force: true });
      return `the history cache ${this.file} could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
  }

  /** After listing every file of `agent` under `root` (scope all): drops the entries of files no longer there. */
  forget(agent: HarnessName, root: string): void {
    const prefix = keyOf(agent, root);
    for (const key of this.entries.keys()) {
      if (key.startsWith(prefix) && !this.used.has(key)) {
        this.entries.delete(key);
        this.changed = true;
      }
    }
  }
}

function keyOf(agent: HarnessName, file: string): string {
  return `${agent}\u0000${file}`;
}

const isRow = (row: unknown): row is HistoryEntry => {
  if (typeof row !== 'object' || row === null) return false;
  const r = row as Record<string, unknown>;
  return typeof r.id === 'string' && typeof r.title === 'string' && typeof r.firstPrompt === 'string' && typeof r.cwd === 'string'
    && typeof r.updatedAt === 'number' && Number.isFinite(r.updatedAt) && (r.messages === null || (typeof r.messages === 'number' && Number.isInteger(r.messages)));
};

/** The entries, or why the text is not a cache of this version (then it is rebuilt). */
export function parseCache(text: string): Map<string, CachedFile> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON (torn or corrupt)';
  }
  if (typeof value !== 'object' || value === null) return 'not an object';
  const doc = value as Record<string, unknown>;
  if (doc.format !== FORMAT) return `not a ${FORMAT} file`;
  if (doc.version !== VERSION) return `version ${String(doc.version)}, not ${VERSION}`;
  if (typeof doc.files !== 'object' || doc.files === null || Array.isArray(doc.files)) return 'files: expected an object';
  const entries = new Map<string, CachedFile>();
  for (const [key, entry] of Object.entries(doc.files)) {
    const e = entry as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || typeof e.size !== 'number' || typeof e.mtimeMs !== 'number' || !Array.isArray(e.rows) || !e.rows.every(isRow)) {
      return `the entry of ${JSON.stringify(key.replace('\u0000', ' '))} is not a cached file`;
    }
    entries.set(key, { size: e.size, mtimeMs: e.mtimeMs, rows: e.rows });
  }
  return entries;
}
