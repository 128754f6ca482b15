import { HARNESS_NAMES, type HarnessName, type HistoryEntry } from '../harness/index.js';

// The history cache's file, read and written: by agent, then by directory, each directory one
// flat array of its files — `name, size, mtimeMs, rowCount`, then each row's six fields in
// ROW order. Flat arrays of strings and numbers are what JSON.parse builds fastest: on 20 000
// cached conversations this text (4.2 MB) parsed in 6–12 ms where the first format's object
// per file keyed by its whole path (7.2 MB) took 27–70 ms, before any check, on the 2-core
// machine. Nothing of it is trusted: a value out of place makes the whole text refused.

export const FORMAT = 'fleetcom-history-cache';
export const VERSION = 2;

export interface CachedFile {
  size: number;
  mtimeMs: number;
  rows: HistoryEntry[];
  /** Looked up or set in this run (files of the scope that were not are gone). */
  used: boolean;
}

/** Agent → directory → file name → what it gave. */
export type CacheEntries = Map<HarnessName, Map<string, Map<string, CachedFile>>>;

/** Values of a file before its rows: name, size, mtimeMs, row count. */
const FILE_HEAD = 4;
/** id, title, firstPrompt, updatedAt, messages, cwd. */
const ROW = 6;

const isAgent = (name: string): name is HarnessName => (HARNESS_NAMES as readonly string[]).includes(name);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** One directory's array as its files, or why it is not one. */
function filesOf(values: unknown[]): Map<string, CachedFile> | string {
  const files = new Map<string, CachedFile>();
  let at = 0;
  while (at < values.length) {
    const name = values[at];
    const size = values[at + 1];
    const mtimeMs = values[at + 2];
    const count = values[at + 3];
    if (typeof name !== 'string' || name === '' || name.includes('/')) return `value ${at}: expected a file name`;
    if (!isCount(size) || !isTime(mtimeMs) || !isCount(count)) return `${JSON.stringify(name)}: expected its size, mtime and row count`;
    at += FILE_HEAD;
    if (at + count * ROW > values.length) return `${JSON.stringify(name)}: ${count} rows announced, fewer there`;
    const rows: HistoryEntry[] = [];
    for (let row = 0; row < count; row++, at += ROW) {
      const id = values[at];
      const title = values[at + 1];
      const firstPrompt = values[at + 2];
      const updatedAt = values[at + 3];
      const messages = values[at + 4];
      const cwd = values[at + 5];
      if (typeof id !== 'string' || typeof title !== 'string' || typeof firstPrompt !== 'string' || !isTime(updatedAt)
        || (messages !== null && !isCount(messages)) || typeof cwd !== 'string') return `${JSON.stringify(name)}: row ${row} is not a conversation`;
      rows.push({ id, title, firstPrompt, updatedAt, messages, cwd });
    }
    files.set(name, { size, mtimeMs, rows, used: false });
  }
  return files;
}

/** The entries, or why the text is not a cache of this version (then it is rebuilt). */
export function parseCache(text: string): CacheEntries | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON (torn or corrupt)';
  }
  if (!isObject(value)) return 'not an object';
  if (value.format !== FORMAT) return `not a ${FORMAT} file`;
  if (value.version !== VERSION) return `version ${String(value.version)}, not ${VERSION}`;
  if (!isObject(value.agents)) return 'agents: expected an object';
  const entries: CacheEntries = new Map();
  for (const [agent, dirs] of Object.entries(value.agents)) {
    // An agent this version does not know (a newer fleetcom's) is left out, not a fault.
    if (!isAgent(agent)) continue;
    if (!isObject(dirs)) return `agents.${agent}: expected an object`;
    const byDir = new Map<string, Map<string, CachedFile>>();
    for (const [dir, values] of Object.entries(dirs)) {
      const files = Array.isArray(values) && dir.startsWith('/') ? filesOf(values) : 'expected an absolute directory and an array';
      if (typeof files === 'string') return `agents.${agent}[${JSON.stringify(dir)}]: ${files}`;
      byDir.set(dir, files);
    }
    entries.set(agent, byDir);
  }
  return entries;
}

/** The file's text of these entries. */
export function cacheText(entries: CacheEntries): string {
  const agents: Record<string, Record<string, unknown[]>> = {};
  for (const [agent, byDir] of entries) {
    const dirs: Record<string, unknown[]> = {};
    for (const [dir, files] of byDir) {
      if (files.size === 0) continue;
      const values: unknown[] = [];
      for (const [name, file] of files) {
        values.push(name, file.size, file.mtimeMs, file.rows.length);
        for (const r of file.rows) values.push(r.id, r.title, r.firstPrompt, r.updatedAt, r.messages, r.cwd);
      }
      dirs[dir] = values;
    }
    agents[agent] = dirs;
  }
  return JSON.stringify({ format: FORMAT, version: VERSION, agents });
}
