import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HarnessName, HistoryEntry, HistoryFile } from '../harness/index.js';
import { cacheText, parseCache, type CacheEntries, type CachedFile } from './cache-format.js';

// The rows each store file gave, keyed by agent, path, size and mtime: a file whose three are
// unchanged is not read again. The cache is input like any other file: one that is not exactly
// this shape (corrupt, torn, another program's, another version's) is dropped whole and
// rebuilt; it is written to a temp file and renamed, so a reader never sees half of it.

/** A cache larger than this is not read (rebuilt instead): it cannot be ours for any real store. */
const MAX_BYTES = 256 * 1024 * 1024;

export class HistoryCache {
  private changed = false;
  /** The directory last looked up: listings come a directory at a time, and slicing and hashing it again for each file cost ~1 µs a file. */
  private last: { agent: HarnessName; dir: string; files: Map<string, CachedFile> | undefined } | null = null;

  private constructor(
    readonly file: string | null,
    private readonly entries: CacheEntries,
    /** Why the file on disk was not used (null: it was, or there was none). */
    readonly discarded: string | null,
  ) {}

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
    if (this.file === null) return null;
    const cut = file.path.lastIndexOf('/');
    const hit = this.filesIn(agent, file.path, cut)?.get(file.path.slice(cut + 1));
    if (hit === undefined || hit.size !== file.size || hit.mtimeMs !== file.mtimeMs) return null;
    hit.used = true;
    return hit.rows;
  }

  set(agent: HarnessName, file: HistoryFile, rows: HistoryEntry[]): void {
    // Without a file nothing is asked twice: keeping the rows would only cost their entries.
    if (this.file === null) return;
    const [dir, name] = splitPath(file.path);
    let byDir = this.entries.get(agent);
    if (byDir === undefined) this.entries.set(agent, (byDir = new Map()));
    let files = byDir.get(dir);
    if (files === undefined) byDir.set(dir, (files = new Map()));
    files.set(name, { size: file.size, mtimeMs: file.mtimeMs, rows, used: true });
    this.changed = true;
    this.last = null;
  }

  private filesIn(agent: HarnessName, file: string, cut: number): Map<string, CachedFile> | undefined {
    const last = this.last;
    if (last !== null && last.agent === agent && last.dir.length === cut && file.startsWith(last.dir)) return last.files;
    const dir = cut <= 0 ? '/' : file.slice(0, cut);
    const files = this.entries.get(agent)?.get(dir);
    this.last = { agent, dir, files };
    return files;
  }

  /**
   * Writes the cache when it changed: the entries of this run, and those of files it did not
   * look at (another scope's); entries of files gone are dropped by `forget`.
   */
  save(): string | null {
    if (this.file === null || (!this.changed && this.discarded === null)) return null;
    const text = cacheText(this.entries);
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

  /**
   * After listing every file of `agent` under `root` (scope all): drops the entries of files no
   * longer there. `root` is a directory, or a file (opencode's database).
   */
  forget(agent: HarnessName, root: string): void {
    const byDir = this.entries.get(agent);
    if (byDir === undefined) return;
    const within = root.endsWith('/') ? root : `${root}/`;
    const [parent, base] = splitPath(root);
    for (const [dir, files] of byDir) {
      if (dir === root || dir.startsWith(within)) this.drop(files, () => true);
      else if (dir === parent) this.drop(files, (name) => name === base);
      if (files.size === 0) byDir.delete(dir);
    }
    this.last = null;
  }

  private drop(files: Map<string, CachedFile>, under: (name: string) => boolean): void {
    for (const [name, file] of files) {
      if (file.used || !under(name)) continue;
      files.delete(name);
      this.changed = true;
    }
  }
}

/** A store file's directory and name (listed paths are absolute). */
function splitPath(file: string): [string, string] {
  const cut = file.lastIndexOf('/');
  return [cut <= 0 ? '/' : file.slice(0, cut), file.slice(cut + 1)];
}
