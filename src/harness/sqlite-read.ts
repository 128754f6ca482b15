import * as fs from 'node:fs';

// A read-only reader of one rowid table of an SQLite database, in plain TypeScript: opencode
// keeps its sessions in SQLite (WAL mode), and fleetcom must read them synchronously (id
// resolution is synchronous everywhere) on every supported Node without a native build. A
// wasm SQLite starts asynchronously and sees only the main file; `node:sqlite` exists only
// from Node 22.5; `opencode session list` boots the whole client (~26 s on 2 busy cores).
// So this reads the file format itself (sqlite.org/fileformat2.html): the main file, with the
// committed frames of its `-wal` file laid over it, as SQLite's own readers see it.
//
// The file is input: every offset is bounds-checked, every page is visited at most once, and
// any inconsistency is reported as unreadable, never thrown.

export type SqlValue = null | number | string | Uint8Array;

export type TableRead =
  | { kind: 'rows'; columns: string[]; rows: SqlValue[][] }
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string };

/** A larger WAL is not read (SQLite checkpoints at ~4 MB by default). */
export const MAX_WAL_BYTES = 64 * 1024 * 1024;

const MAGIC = 'SQLite format 3\u0000';
const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;

class Corrupt extends Error {}

function fail(what: string): never {
  throw new Corrupt(what);
}

/** A descriptor of the file (non-blocking, so a FIFO planted there cannot hang); null when it is missing. */
function openOrNull(path: string): number | null {
  try {
    return fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

function readFileOrNull(path: string): Buffer | null {
  const fd = openOrNull(path);
  if (fd === null) return null;
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) fail('not a regular file');
    if (stats.size > MAX_WAL_BYTES) fail(`a WAL larger than ${MAX_WAL_BYTES} bytes`);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The committed frames of a WAL file: page number → page image, and the database size they commit. */
function walPages(wal: Buffer | null, pageSize: number): { pages: Map<number, Buffer>; dbPages: number | null } {
  const pages = new Map<number, Buffer>();
  if (wal === null || wal.length < 32) return { pages, dbPages: null };
  const magic = wal.readUInt32BE(0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return { pages, dbPages: null };
  const bigEndian = magic === WAL_MAGIC_BE;
  const walPageSize = wal.readUInt32BE(8);
  if (walPageSize !== pageSize) return { pages, dbPages: null };
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let [s0, s1] = checksum(wal, 0, 24, 0, 0, bigEndian);
  if (s0 !== wal.readUInt32BE(24) || s1 !== wal.readUInt32BE(28)) return { pages, dbPages: null };
  const pending = new Map<number, Buffer>();
  let dbPages: number | null = null;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    [s0, s1] = checksum(wal, at, at + 8, s0, s1, bigEndian);
    [s0, s1] = checksum(wal, at + 24, at + 24 + pageSize, s0, s1, bigEndian);
    if (s0 !== wal.readUInt32BE(at + 16) || s1 !== wal.readUInt32BE(at + 20)) break;
    const pageNumber = wal.readUInt32BE(at);
    if (pageNumber === 0) break;
    pending.set(pageNumber, wal.subarray(at + 24, at + 24 + pageSize));
    const commit = wal.readUInt32BE(at + 4);
    if (commit !== 0) {
      // Only whole transactions count: frames after the last commit frame are not yet written.
      for (const [n, page] of pending) pages.set(n, page);
      pending.clear();
      dbPages = commit;
    }
  }
  return { pages, dbPages };
}

/** SQLite's WAL checksum over [from, to) in 8-byte steps. */
function checksum(buf: Buffer, from: number, to: number, s0: number, s1: number, bigEndian: boolean): [number, number] {
  for (let i = from; i + 8 <= to; i += 8) {
    const x0 = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
    const x1 = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** The main file read page by page (only the pages of the tables read), under the WAL's frames. */
class Database {
  readonly usable: number;
  private readonly pageCount: number;
  private readonly filePages: number;

  constructor(
    private readonly fd: number,
    fileSize: number,
    readonly pageSize: number,
    reserved: number,
    private readonly wal: Map<number, Buffer>,
    walPagesCount: number | null,
  ) {
    this.usable = pageSize - reserved;
    this.filePages = Math.floor(fileSize / pageSize);
    this.pageCount = walPagesCount ?? this.filePages;
    if (this.usable < 480) fail('usable page size below 480');
  }

  page(n: number): Buffer {
    if (!Number.isInteger(n) || n < 1 || n > this.pageCount) fail(`page ${n} out of range`);
    const fromWal = this.wal.get(n);
    if (fromWal) return fromWal;
    if (n > this.filePages) fail(`page ${n} past the end of the file`);
    const page = Buffer.alloc(this.pageSize);
    if (fs.readSync(this.fd, page, 0, this.pageSize, (n - 1) * this.pageSize) !== this.pageSize) fail(`page ${n} cut short`);
    return page;
  }

  get pages(): number {
    return this.pageCount;
  }
}

function withDatabase<T>(path: string, use: (db: Database) => T): T | null {
  // The WAL first: a checkpoint meanwhile copies its frames into the main file, which the
  // frames read here then override with the same content.
  const wal = readFileOrNull(`${path}-wal`);
  const fd = openOrNull(path);
  if (fd === null) return null;
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) fail('not a regular file');
    const header = Buffer.alloc(100);
    if (fs.readSync(fd, header, 0, 100, 0) !== 100 || header.toString('latin1', 0, 16) !== MAGIC) fail('not an SQLite database');
    const rawSize = header.readUInt16BE(16);
    const pageSize = rawSize === 1 ? 65536 : rawSize;
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) fail(`page size ${rawSize}`);
    const encoding = header.readUInt32BE(56);
    if (encoding !== 0 && encoding !== 1) fail('text is not UTF-8');
    const { pages, dbPages } = walPages(wal, pageSize);
    return use(new Database(fd, stats.size, pageSize, header[20] ?? 0, pages, dbPages));
  } finally {
    fs.closeSync(fd);
  }
}

/** A big-endian SQLite varint at `at`: its value and length. */
function varint(buf: Buffer, at: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    if (at + i >= buf.length) fail('varint past the end of a page');
    const byte = buf[at + i] ?? 0;
    if (i === 8) return [value * 256 + byte, 9];
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, i + 1];
  }
  return [value, 9];
}

function u16(buf: Buffer, at: number): number {
  if (at + 2 > buf.length) fail('read past the end of a page');
  return buf.readUInt16BE(at);
}

function u32(buf: Buffer, at: number): number {
  if (at + 4 > buf.length) fail('read past the end of a page');
  return buf.readUInt32BE(at);
}

/** A table leaf cell's payload, overflow pages included. */
function cellPayload(db: Database, page: Buffer, at: number, seen: Set<number>): { rowid: number; payload: Buffer } {
  const [size, n1] = varint(page, at);
  const [rowid, n2] = varint(page, at + n1);
  const start = at + n1 + n2;
  const u = db.usable;
  const maxLocal = u - 35;
  let local = size;
  if (size > maxLocal) {
    const minLocal = Math.floor(((u - 12) * 32) / 255) - 23;
    const k = minLocal + ((size - minLocal) % (u - 4));
    local = k <= maxLocal ? k : minLocal;
  }
  if (start + local > page.length) fail('cell past the end of its page');
  if (local === size) return { rowid, payload: page.subarray(start, start + size) };
  const parts: Buffer[] = [page.subarray(start, start + local)];
  let remaining = size - local;
  let next = u32(page, start + local);
  while (remaining > 0) {
    if (seen.has(next)) fail(`overflow page ${next} visited twice`);
    seen.add(next);
    const overflow = db.page(next);
    const take = Math.min(remaining, u - 4);
    parts.push(overflow.subarray(4, 4 + take));
    remaining -= take;
    next = u32(overflow, 0);
  }
  return { rowid, payload: Buffer.concat(parts) };
}

function decodeRecord(payload: Buffer): SqlValue[] {
  const [headerSize, first] = varint(payload, 0);
  if (headerSize > payload.length) fail('record header past its payload');
  const types: number[] = [];
  for (let at = first; at < headerSize; ) {
    const [type, n] = varint(payload, at);
    types.push(type);
    at += n;
  }
  const values: SqlValue[] = [];
  let at = headerSize;
  const need = (n: number) => {
    if (at + n > payload.length) fail('record value past its payload');
  };
  for (const type of types) {
    if (type === 0) values.push(null);
    else if (type >= 1 && type <= 6) {
      const width = [0, 1, 2, 3, 4, 6, 8][type] ?? 0;
      need(width);
      values.push(width === 8 ? Number(payload.readBigInt64BE(at)) : payload.readIntBE(at, width));
      at += width;
    } else if (type === 7) {
      need(8);
      values.push(payload.readDoubleBE(at));
      at += 8;
    } else if (type === 8 || type === 9) values.push(type - 8);
    else if (type >= 12) {
      const length = type % 2 === 0 ? (type - 12) / 2 : (type - 13) / 2;
      need(length);
      const bytes = payload.subarray(at, at + length);
      values.push(type % 2 === 0 ? new Uint8Array(bytes) : bytes.toString('utf8'));
      at += length;
    } else fail(`reserved serial type ${type}`);
  }
  return values;
}

/** Every row of the rowid table rooted at `root`: [rowid, values]. */
function tableRows(db: Database, root: number): Array<[number, SqlValue[]]> {
  const rows: Array<[number, SqlValue[]]> = [];
  const seen = new Set<number>();
  const stack = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (seen.has(n)) fail(`page ${n} visited twice`);
    seen.add(n);
    if (seen.size > db.pages) fail('more pages visited than the database has');
    const page = db.page(n);
    const header = n === 1 ? 100 : 0;
    const type = page[header];
    const cells = u16(page, header + 3);
    if (type === 0x05) {
      for (let i = 0; i < cells; i++) stack.push(u32(page, u16(page, header + 12 + 2 * i)));
      stack.push(u32(page, header + 8));
    } else if (type === 0x0d) {
      for (let i = 0; i < cells; i++) {
        const { rowid, payload } = cellPayload(db, page, u16(page, header + 8 + 2 * i), seen);
        rows.push([rowid, decodeRecord(payload)]);
      }
    } else fail(`page ${n} is not a table b-tree page (type ${type})`);
  }
  return rows;
}

interface ColumnDef {
  name: string;
  rowidAlias: boolean;
}

const TABLE_CONSTRAINT = /^(constraint|primary|unique|check|foreign)\b/i;

/** The columns of a `CREATE TABLE name (…)` statement, in order. */
export function tableColumns(sql: string): ColumnDef[] {
  const open = sql.indexOf('(');
  const close = sql.lastIndexOf(')');
  if (open === -1 || close < open) fail('CREATE TABLE without a column list');
  const body = sql.slice(open + 1, close);
  const defs: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quote !== null) {
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '[') quote = ']';
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      defs.push(body.slice(start, i));
      start = i + 1;
    }
  }
  defs.push(body.slice(start));
  const columns: ColumnDef[] = [];
  for (const raw of defs) {
    const def = raw.trim();
    if (def === '' || TABLE_CONSTRAINT.test(def)) continue;
    const quoted = /^(?:`([^`]*)`|"([^"]*)"|\[([^\]]*)\]|'([^']*)')/.exec(def);
    const name = quoted ? (quoted[1] ?? quoted[2] ?? quoted[3] ?? quoted[4] ?? '') : (def.split(/\s/)[0] ?? '');
    const rest = def.slice(quoted ? quoted[0].length : name.length);
    columns.push({ name, rowidAlias: /^\s+integer\s+primary\s+key\b/i.test(rest) });
  }
  return columns;
}

/**
 * Every row of table `table` of the database at `path` (its WAL included), columns by name.
 * Missing: no database file. Unreadable: anything about it this reader does not expect.
 */
export function readSqliteTable(path: string, table: string): TableRead {
  for (let attempt = 0; ; attempt++) {
    try {
      const read = withDatabase(path, (db): TableRead => {
        const schema = tableRows(db, 1).map(([, values]) => values);
        const entry = schema.find((row) => row[0] === 'table' && row[1] === table);
        if (entry === undefined) return { kind: 'unreadable', reason: `no table ${table}` };
        const [, , , root, sql] = entry;
        if (typeof root !== 'number' || typeof sql !== 'string') fail(`the schema entry of ${table}`);
        if (/\)\s*without\s+rowid\s*;?\s*$/i.test(sql)) fail(`${table} is a WITHOUT ROWID table`);
        const columns = tableColumns(sql);
        const rows = tableRows(db, root).map(([rowid, values]) =>
          columns.map((column, i) => (column.rowidAlias ? rowid : (values[i] ?? null))),
        );
        return { kind: 'rows', columns: columns.map((c) => c.name), rows };
      });
      return read ?? { kind: 'missing' };
    } catch (error) {
      // A checkpoint between the two reads can tear the view once; a second read is whole.
      if (error instanceof Corrupt && attempt === 0) continue;
      const reason = error instanceof Error ? error.message : String(error);
      return { kind: 'unreadable', reason: (error as NodeJS.ErrnoException).code ?? reason };
    }
  }
}
