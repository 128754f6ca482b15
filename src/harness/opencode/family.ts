import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { argvProbe } from '../argv-probe.js';
import type { SignalResult } from '../attention.js';
import type { CorrelationContext, Harness, HomeRule } from '../harness.js';
import { readTextFile, statOrNull } from '../fs-read.js';
import { fieldProblem, isJsonObject, jsonObjectOf } from '../json-shape.js';
import type { HarnessName } from '../names.js';
import { OPENCODE_PLUGIN, OPENCODE_PLUGIN_FILE, OPENCODE_PLUGIN_MODE } from './plugin.js';
import { lastHint } from '../scrape.js';
import { readSqliteTable, type SqlValue } from '../sqlite-read.js';
import { inWindow, soleCandidate, WINDOW_MS } from '../store-window.js';
import type { AgentDetection, ConversationOf, ConversationRoots, InstrumentInput, InstrumentPlan, RunEvidence, StoredConversation } from '../types.js';
import { opencodeHistory } from './history.js';
import { opencodeConversing } from './conversing.js';

// opencode and its forks (Kilo CLI), 9.2 and 9.4: no flag pins a new session's id. A plugin
// of fleetcom's own, given to the launch through the client's inline-config variable
// (OPENCODE_CONFIG_CONTENT, KILO_CONFIG_CONTENT), appends each parent-less session it sees to
// the capture file; the `<program> -s <id>` line is the exit hint; its SQLite database is the
// store and its home. The same plugin, ids, session table and events serve both (measured on
// opencode 1.18.33 and Kilo 7.7.7).

const ID = /^ses_[0-9A-Za-z]{26}$/;

/**
 * 9.2: `ses_` + 26 characters of `0-9A-Za-z` (measured on 1.18.33 and in its database:
 * 12 lowercase hex digits of time, then 14 base62, `ses_dccbe66c4ffeR0KvdX3rqoJ33Q`).
 */
export function isOpencodeId(value: unknown): value is string {
  return typeof value === 'string' && ID.test(value);
}

/**
 * The inline config this launch gets: the caller's own (OPENCODE_CONFIG_CONTENT, KILO_CONFIG_CONTENT) with fleetcom's
 * plugin added to its `plugin` list; null when the caller's cannot be merged (not a JSON
 * object, a `plugin` that is not a list of strings): then it is left alone, uncaptured.
 */
function configContent(own: string | undefined, plugin: string): string | null {
  let config: Record<string, unknown> = {};
  if (own !== undefined && own.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(own);
    } catch {
      return null;
    }
    if (!isJsonObject(parsed)) return null;
    config = parsed;
  }
  const plugins = config.plugin ?? [];
  if (!Array.isArray(plugins) || !plugins.every((p) => typeof p === 'string')) return null;
  return JSON.stringify({ ...config, plugin: [...plugins, plugin] });
}

function instrumentWith(configVar: string) {
  return (detection: AgentDetection, input: InstrumentInput): InstrumentPlan => {
    const pinnedId = detection.form === 'resume' ? detection.targetId : null;
    const file = path.join(input.namespace, OPENCODE_PLUGIN_FILE);
    // A relative path is explain's placeholder, shown as it is (pathToFileURL would read the cwd).
    const plugin = path.isAbsolute(file) ? pathToFileURL(file).href : `file://${file}`;
    const content = configContent(input.env[configVar], plugin);
    if (content === null) return { suffix: '', env: {}, pinnedId, captures: false };
    return { suffix: '', env: { FLEETCOM_CAPTURE_FILE: input.captureFile, [configVar]: content }, pinnedId, captures: true };
  };
}

/** The session ids of the plugin's capture lines, oldest first (the plugin writes parent-less sessions only). */
function parseCapture(text: string): string[] {
  const ids: string[] = [];
  for (const line of text.split('\n')) {
    const value = jsonObjectOf(line);
    if (value === null || (value.type !== 'session.created' && value.type !== 'session.updated')) continue;
    if (isOpencodeId(value.id)) ids.push(value.id);
  }
  return ids;
}

function captureId(evidence: RunEvidence): string | null {
  if (evidence.captureFile === null) return null;
  const file = readTextFile(evidence.captureFile);
  return file.kind === 'text' ? (parseCapture(file.text).at(-1) ?? null) : null;
}

interface SessionRow {
  id: string;
  parentId: string | null;
  directory: string | null;
  created: number | null;
}

/** The last read of each database, kept while neither its file nor its WAL changed (ls asks often). */
const lastRead = new Map<string, { stamp: string; rows: SessionRow[] | null }>();

function stampOf(db: string): string {
  return [db, `${db}-wal`].map((file) => {
    const stats = statOrNull(file);
    return stats === null ? '-' : `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
  }).join('/');
}

/** The database's `session` rows; null when it is missing or cannot be read. */
function sessionRows(db: string): SessionRow[] | null {
  const stamp = stampOf(db);
  const known = lastRead.get(db);
  if (known?.stamp === stamp) return known.rows;
  const rows = readSessionRows(db);
  lastRead.clear();
  lastRead.set(db, { stamp, rows });
  return rows;
}

function readSessionRows(db: string): SessionRow[] | null {
  const read = readSqliteTable(db, 'session');
  if (read.kind !== 'rows') return null;
  const at = (name: string) => read.columns.indexOf(name);
  const [id, parent, directory, created] = [at('id'), at('parent_id'), at('directory'), at('time_created')];
  if (id === -1 || parent === -1 || directory === -1 || created === -1) return null;
  const text = (v: SqlValue | undefined) => (typeof v === 'string' ? v : null);
  return read.rows.flatMap((row): SessionRow[] => {
    const rowId = text(row[id]);
    if (rowId === null) return [];
    const time = row[created];
    return [{ id: rowId, parentId: text(row[parent]), directory: text(row[directory]), created: typeof time === 'number' ? time : null }];
  });
}

/** 9.4: a row with no parent, this cwd, created between spawn − 30 s and the end of the run; exactly one. */
function correlate(evidence: RunEvidence, context: CorrelationContext): string | null {
  const rows = sessionRows(evidence.home);
  if (rows === null) return null;
  const from = evidence.spawnedAt - WINDOW_MS;
  const to = evidence.endedAt ?? context.now;
  const ids = rows
    .filter((r) => r.parentId === null && r.directory === evidence.cwd && r.created !== null && inWindow(r.created, from, to))
    .map((r) => r.id);
  return soleCandidate(ids, context.excluded, isOpencodeId);
}

/**
 * 9.5: never a child. A session the database names with a parent, or does not hold at all, is
 * not resumable; a database that cannot be read leaves the capture's and the hint's word.
 */
function resumable(id: string, evidence: RunEvidence): boolean {
  const rows = sessionRows(evidence.home);
  if (rows === null) return true;
  const row = rows.find((r) => r.id === id);
  return row !== undefined && row.parentId === null;
}

/** Parents followed before a chain of sessions counts as broken. */
const MAX_DEPTH = 16;

/**
 * 9.5: a session with a parent (a subagent's) stands for the session at the root of its
 * parents; one the database does not hold, or a database that cannot be read, says nothing
 * against the id itself (resumable decides).
 */
function conversationOf(id: string, roots: ConversationRoots): ConversationOf {
  const rows = sessionRows(roots.home);
  const byId = new Map((rows ?? []).map((row) => [row.id, row]));
  let row = byId.get(id);
  if (row === undefined || row.parentId === null) return { kind: 'own', id };
  const chain = [id];
  while (row.parentId !== null) {
    const parent: string = row.parentId;
    if (chain.includes(parent) || chain.length > MAX_DEPTH) return { kind: 'none', child: id, note: `a subagent session whose parents do not end in a session of its own` };
    chain.push(parent);
    const next = byId.get(parent);
    if (next === undefined || !isOpencodeId(parent)) return { kind: 'none', child: id, note: `a subagent session of ${parent}, which ${roots.home} does not hold` };
    row = next;
  }
  const root = chain[chain.length - 1] ?? id;
  return { kind: 'parent', id: root, child: id, note: `a subagent session of ${root}` };
}

function storedIn(name: string) {
  return (db: string, _cwd: string, id: string): StoredConversation => {
    const rows = sessionRows(db);
    if (rows === null) return { found: false, path: db, why: `the ${name} database ${db} is missing or cannot be read` };
    const row = rows.find((r) => r.id === id);
    if (row === undefined) return { found: false, path: db, why: `no ${name} session ${id} in ${db}` };
    if (row.parentId !== null) return { found: false, path: db, why: `${id} is a subagent session of ${row.parentId}, not a conversation to resume` };
    return { found: true, path: db };
  };
}

const OPENCODE_EVENT = { type: 'string', sessionID: 'string', status: 'string?' } as const;

/** One line of the plugin's events file. */
export function opencodeSignal(payload: unknown): SignalResult {
  const problem = fieldProblem(payload, OPENCODE_EVENT);
  if (problem !== null) return { kind: 'ignored', why: `not an opencode plugin event (${problem})` };
  const { type: event, sessionID: sessionId, status } = payload as { type: string; sessionID: string; status?: string };
  if (!isOpencodeId(sessionId)) return { kind: 'ignored', why: `${event}: sessionID is not a valid id` };
  const base = { event, sessionId, message: null, starts: false };
  if (event === 'permission.asked' || event === 'permission.updated') return { kind: 'signal', signal: { ...base, attention: 'permission' } };
  if (event === 'permission.replied') return { kind: 'signal', signal: { ...base, attention: 'working' } };
  if (event === 'session.idle' || (event === 'session.status' && status === 'idle')) return { kind: 'signal', signal: { ...base, attention: 'waiting' } };
  if (event === 'session.status' && (status === 'busy' || status === 'retry')) return { kind: 'signal', signal: { ...base, attention: 'working' } };
  return { kind: 'ignored', why: `${event} ${status ?? ''} carries no attention`.trim() };
}


/** What tells one client of the family from another. */
export interface OpencodeFamily {
  name: HarnessName;
  /** Where its database is, and the variables that move it. */
  home: HomeRule;
  /** The variable holding inline config that the client merges over the user's own. */
  configVar: string;
}

export function opencodeFamily({ name, home, configVar }: OpencodeFamily): Harness {
  return {
    name,
    // Both are the client's own spelling; a rewrite writes `-s`.
    selectors: ['-s', '--session'],
    isId: isOpencodeId,
    idShape: 'ses_ followed by 26 letters and digits',
    conversationOf,
    home,
    assets: [{ file: OPENCODE_PLUGIN_FILE, mode: OPENCODE_PLUGIN_MODE, content: OPENCODE_PLUGIN }],
    instrument: instrumentWith(configVar),
    parseCapture,
    captureId,
    scrapeExit: (text) => lastHint(text, { prefixes: [`${name} -s `], id: { length: 30, test: isOpencodeId } }),
    correlate,
    resumable,
    stored: storedIn(name),
    ownership: { kind: 'none', why: `${name} keeps every session in one database and records no holder` },
    attention: { file: 'events', signal: opencodeSignal, conversationFromCapture: false },
    warnings: () => [],
    // The family shares opencode's `session` table: its root rows, with their titles.
    history: opencodeHistory,
    conversing: opencodeConversing,
    // Started by hand it runs without fleetcom's plugin, so only `-s <id>` names its session
    // (`--continue` takes the newest one, which may be another process's).
    probe: argvProbe(name, { flags: ['-s', '--session'], isId: isOpencodeId, noRecord: `${name}'s database names no process of a session` }),
  };
}
