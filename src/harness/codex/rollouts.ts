import * as path from 'node:path';
import { entryPath, listDir, readFirstLine } from '../fs-read.js';
import { isValidId, v7TimeMs } from '../ids.js';
import { isJsonObject, jsonObjectOf, type JsonObject } from '../json-shape.js';
import { utcDateFolders } from '../store-window.js';
import type { ConversationOf, ConversationRoots } from '../types.js';

// codex's rollouts, `<home>/sessions/YYYY/MM/DD/rollout-<time>-<v7 id>.jsonl`, and what their
// first record says about the thread. Measured on 0.171.0: a user's thread starts
//   {"type":"session_meta","payload":{"id":…,"cwd":…,"source":"cli","thread_source":"user",…}}
// and a subagent's (spawned by the collab tool, beside the user's, held open by the same TUI)
//   {"type":"session_meta","payload":{"id":…,"parent_thread_id":P,"thread_source":"subagent",
//    "source":{"subagent":{"thread_spawn":{"parent_thread_id":P,"depth":1,…}}},…}}
// Older rollouts name the parent only inside `source.subagent.thread_spawn`.

/** The longest first line store correlation reads (contract section 6). */
export const FIRST_LINE_MAX = 64 * 1024;
/**
 * The longest first line read to tell a thread's kind. The record embeds codex's whole base
 * instructions (21.7 KB of 21.5 KB measured on 0.171.0), which a user's own can outgrow.
 */
const HEAD_MAX = 1024 * 1024;

/** Parents followed before a chain of subagent threads counts as broken (codex allows a few). */
const MAX_DEPTH = 16;

/** The id of a rollout file name `rollout-*-<id>.jsonl`, or null. */
export function rolloutId(name: string): string | null {
  const prefix = 'rollout-';
  const suffix = '.jsonl';
  if (!name.startsWith(prefix) || !name.endsWith(suffix)) return null;
  const stem = name.slice(0, -suffix.length);
  if (stem.length < prefix.length + 1 + 36 || stem[stem.length - 37] !== '-') return null;
  const id = stem.slice(-36);
  return isValidId(id) ? id : null;
}

/** Every rollout file in the given date folders: its path and id. */
export function rolloutsIn(home: string, folders: readonly string[]): Array<{ file: string; id: string }> {
  const found: Array<{ file: string; id: string }> = [];
  for (const folder of folders) {
    const dir = path.join(home, 'sessions', ...folder.split('/'));
    for (const entry of listDir(dir)) {
      const id = entry.isFile() ? rolloutId(entry.name) : null;
      if (id !== null) found.push({ file: entryPath(dir, entry.name), id });
    }
  }
  return found;
}

/**
 * The rollout `sessions/YYYY/MM/DD/rollout-*-<id>.jsonl`. codex writes it at the first message,
 * so its existence means the conversation holds one. A v7 id names its day (± a day for the
 * local time codex may file it under); any other id is looked for in every date folder.
 */
export function findRollout(home: string, id: string): string | null {
  const time = v7TimeMs(id);
  const folders = time !== null ? utcDateFolders(time, time, 1, 1) : everyDateFolder(path.join(home, 'sessions'));
  return rolloutsIn(home, folders).find((rollout) => rollout.id === id)?.file ?? null;
}

export function everyDateFolder(root: string): string[] {
  const folders: string[] = [];
  const dirsIn = (dir: string) => listDir(dir).filter((e) => e.isDirectory()).map((e) => e.name);
  for (const y of dirsIn(root)) for (const m of dirsIn(path.join(root, y))) for (const d of dirsIn(path.join(root, y, m))) folders.push(`${y}/${m}/${d}`);
  return folders;
}

/** The `payload` of the rollout's first record (codex's `session_meta`), else null. */
export function sessionMeta(file: string, maxBytes = HEAD_MAX): JsonObject | null {
  const line = readFirstLine(file, maxBytes);
  const value = line === null ? null : firstRecordOf(line);
  return value !== null && isJsonObject(value.payload) ? value.payload : null;
}

/** Where codex writes its base instructions' text, compact as it writes every record. */
const INSTRUCTIONS = '"base_instructions":{"text":"';

/**
 * A rollout's first record as an object, or null (not JSON, not an object). The base
 * instructions' text (~21 KB of the ~22 KB record, measured on 0.171.0) is nothing fleetcom
 * reads: it is emptied before parsing (its parse was a quarter of a cold `history` of 2 000
 * conversations on the 2-core machine). A record the cut leaves without valid JSON is parsed
 * whole, so the cut saves time and changes no other field (a text JSON would refuse, with a
 * bad escape, no longer refuses the record: nothing reads it).
 */
export function firstRecordOf(line: string): JsonObject | null {
  const start = line.indexOf(INSTRUCTIONS);
  const end = start === -1 ? -1 : stringEnd(line, start + INSTRUCTIONS.length);
  if (end !== -1) {
    const cut = jsonObjectOf(`${line.slice(0, start + INSTRUCTIONS.length)}${line.slice(end)}`);
    if (cut !== null) return cut;
  }
  return jsonObjectOf(line);
}

/** The index of the quote that closes the JSON string whose text starts at `from`, or -1. */
function stringEnd(line: string, from: number): number {
  for (let quote = line.indexOf('"', from); quote !== -1; quote = line.indexOf('"', quote + 1)) {
    let slashes = 0;
    while (line.charCodeAt(quote - 1 - slashes) === 0x5c) slashes += 1;
    if (slashes % 2 === 0) return quote;
  }
  return -1;
}

/** What a rollout's first record says the thread is. */
export type ThreadKind =
  | { kind: 'user' }
  /** A thread codex started for itself (a subagent's, a review's): `parent` when it names a valid one. */
  | { kind: 'child'; source: string; parent: string | null }
  | { kind: 'unknown'; why: string };

/**
 * A user thread has no parent and `thread_source` "user" (or none, as before codex wrote it).
 * Any other `thread_source`, a `parent_thread_id`, or a `source.subagent` makes it a child.
 */
export function threadKind(meta: JsonObject | null): ThreadKind {
  if (meta === null) return { kind: 'unknown', why: 'its first record is not a readable session_meta' };
  const source = isJsonObject(meta.source) ? meta.source : null;
  const spawn = source && isJsonObject(source.subagent) && isJsonObject(source.subagent.thread_spawn) ? source.subagent.thread_spawn : null;
  const named = meta.parent_thread_id ?? spawn?.parent_thread_id;
  const threadSource = typeof meta.thread_source === 'string' ? meta.thread_source : null;
  const marked = meta.thread_source !== undefined && meta.thread_source !== null && meta.thread_source !== 'user';
  const child = (named !== undefined && named !== '') || marked || (source !== null && 'subagent' in source);
  if (!child) return { kind: 'user' };
  return { kind: 'child', source: threadSource ?? 'subagent', parent: isValidId(named) ? named : null };
}

/**
 * Kinds already read, by rollout path. codex only appends to a rollout, so its first record
 * never changes; `ls` asks for the same few on every call, and one read and parse of a 22 KB
 * record cost ~0.5 ms on a loaded 2-core machine. An unknown kind is read again next time (a
 * record being written is whole the next time).
 */
const known = new Map<string, ThreadKind>();
const KNOWN_MAX = 4096;

/** The kind of the thread whose rollout is `file`. */
export function threadOfRollout(file: string): ThreadKind {
  const cached = known.get(file);
  if (cached !== undefined) return cached;
  const kind = threadKind(sessionMeta(file));
  if (kind.kind !== 'unknown') {
    if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value ?? '');
    known.set(file, kind);
  }
  return kind;
}

/**
 * The conversation `id` belongs to: itself (a user thread, or one with no readable rollout:
 * nothing says it is a child), else the user thread at the root of its parents, else none
 * (a parent missing, unreadable, or not leading to a user thread).
 */
export function codexConversationOf(id: string, roots: ConversationRoots): ConversationOf {
  const own = findRollout(roots.home, id);
  let thread = own === null ? null : threadOfRollout(own);
  if (thread === null || thread.kind !== 'child') return { kind: 'own', id };
  const what = `a ${thread.source} thread`;
  const chain = [id];
  while (thread.kind === 'child') {
    const parent: string | null = thread.parent;
    if (parent === null) return { kind: 'none', child: id, note: `${what} that names no parent` };
    if (chain.includes(parent) || chain.length > MAX_DEPTH) return { kind: 'none', child: id, note: `${what} whose parents do not end in a user thread` };
    chain.push(parent);
    const file = findRollout(roots.home, parent);
    if (file === null) return { kind: 'none', child: id, note: `${what} of ${parent}, which has no rollout under ${path.join(roots.home, 'sessions')}` };
    thread = threadOfRollout(file);
    if (thread.kind === 'unknown') return { kind: 'none', child: id, note: `${what} of ${parent}, which is not a user thread (${thread.why})` };
  }
  const root = chain[chain.length - 1] ?? id;
  const through = chain.length > 2 ? ` (through ${chain.slice(1, -1).join(', ')})` : '';
  return { kind: 'parent', id: root, child: id, note: `${what} of ${root}${through}` };
}
