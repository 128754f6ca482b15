// The session file ("recipe") format. Pure: text in,
// recipe out and back; the store (store.ts) does the reading and writing.
//
// Versioned: {"version": 1, "name": "…", "closed"?: true, "dirs": {"<dir>": [<entry>, …]}}
// Legacy:    {"<dir>": [<entry>, …]}
// Entry:     "<command>" | {"cmd": "<command>", "group": string|null, "name": string|null,
//             "env"?: {"CLAUDE_CONFIG_DIR" | "CODEX_HOME" | "GROK_HOME": "<dir>"}}
import path from 'node:path';
import { agentHomesProblem, homesToWrite, type AgentHomes } from './agent-homes.js';
import { RecipeError } from './errors.js';
import { lineColumn, locateJsonError } from './json-location.js';
import { abbreviateDir } from './names.js';

export const RECIPE_VERSION = 1;
/** Names and groups are cut to this many characters on load. */
export const MAX_LABEL_CHARS = 64;
/** The group the dashboard shows for "no group"; in a file it means none. */
export const UNASSIGNED_GROUP = 'Unassigned';

export interface RecipeEntry {
  cmd: string;
  group: string | null;
  name: string | null;
  /** Agent homes this task runs with, applied on top of the loader's environment. */
  env?: AgentHomes;
}

export interface Recipe {
  name: string;
  /** Directory as written in the file (`~/x`, `/abs`, or relative) → its entries, in order. */
  dirs: Map<string, RecipeEntry[]>;
  /** Only on a final recovery snapshot written by `down`. */
  closed?: boolean;
}

const CONTROL = /\p{Cc}/gu;

/** A session's name as stored and compared: control characters removed, trimmed. */
export function normalizeSessionName(name: string): string {
  return name.replace(CONTROL, '').trim();
}

/** A task name: control characters removed, trimmed, at most 64 characters; empty is none. */
export function normalizeLabel(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const cut = Array.from(value.replace(CONTROL, '').trim()).slice(0, MAX_LABEL_CHARS).join('');
  const clean = cut.trim();
  return clean === '' ? null : clean;
}

/** A task group: as a name, and `Unassigned` also means none. */
export function normalizeGroup(value: string | null | undefined): string | null {
  const label = normalizeLabel(value);
  return label === UNASSIGNED_GROUP ? null : label;
}

export function countTasks(recipe: Recipe): number {
  let n = 0;
  for (const entries of recipe.dirs.values()) n += entries.length;
  return n;
}

// ---- parsing ------------------------------------------------------------------------------

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

// The shapes below are checked by hand, not with zod: `save NAME` reads the file it replaces,
// and zod's evaluation alone costs more than save's budget over `--version` (README,
// Performance). Each check reports the first problem, in the order the keys are listed.

/** A label (`group`, `name`): absent, null or a string. */
const labelProblem = (value: unknown): string | null =>
  value === undefined || value === null || typeof value === 'string' ? null : 'expected a string or null';

function cmdProblem(value: unknown): string | null {
  if (value === undefined) return 'missing: every entry needs a command';
  if (typeof value !== 'string') return 'expected a string';
  return value.trim() === '' ? 'expected a non-empty command' : null;
}

/** The versioned form's own keys (`version` is already known to be a number). */
function versionedProblem(doc: JsonObject): { key: string; message: string } | null {
  if (doc.name !== undefined && typeof doc.name !== 'string') return { key: 'name', message: 'expected a string' };
  if (doc.closed !== undefined && typeof doc.closed !== 'boolean') return { key: 'closed', message: 'expected true or false' };
  if (!isObject(doc.dirs)) return { key: 'dirs', message: 'expected an object mapping directories to lists of commands' };
  return null;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** `dirs["/w"][2].cmd` from path segments; `prefix` is already formatted. */
export function formatIssuePath(segments: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && IDENTIFIER.test(seg)) out += out === '' ? seg : `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

/** `at()` names where the entry is, made only for an error: a recipe of 300 000 entries spent a second on those names. */
function parseEntry(value: unknown, at: () => string, file: string): RecipeEntry {
  if (typeof value === 'string') {
    if (value.trim() === '') throw new RecipeError(file, at(), 'expected a non-empty command');
    return { cmd: value, group: null, name: null };
  }
  if (!isObject(value)) {
    throw new RecipeError(file, at(), 'expected a command string or an object with "cmd"');
  }
  const where = at();
  const fields: Array<[string, string | null]> = [['cmd', cmdProblem(value.cmd)], ['group', labelProblem(value.group)], ['name', labelProblem(value.name)]];
  for (const [key, problem] of fields) if (problem !== null) throw new RecipeError(file, formatIssuePath([key], where), problem);
  const { cmd, group, name, env } = value as { cmd: string; group?: string | null; name?: string | null; env?: unknown };
  const entry: RecipeEntry = { cmd, group: normalizeGroup(group), name: normalizeLabel(name) };
  if (env === undefined || env === null) return entry;
  const problem = agentHomesProblem(env);
  if (problem !== null) {
    throw new RecipeError(file, formatIssuePath(problem.key === null ? ['env'] : ['env', problem.key], where), problem.message);
  }
  return { ...entry, env: env as AgentHomes };
}

function parseDirs(dirs: JsonObject, prefix: string, file: string): Map<string, RecipeEntry[]> {
  const out = new Map<string, RecipeEntry[]>();
  for (const [dir, list] of Object.entries(dirs)) {
    const where = () => `${prefix}[${JSON.stringify(dir)}]`;
    if (dir.trim() === '') throw new RecipeError(file, where(), 'expected a directory, not an empty name');
    if (!Array.isArray(list)) throw new RecipeError(file, where(), 'expected a list of commands');
    out.set(
      dir,
      list.map((entry, k) => parseEntry(entry, () => `${where()}[${k}]`, file)),
    );
  }
  return out;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const problem = locateJsonError(text);
    if (problem === null) throw new RecipeError(file, null, `invalid JSON: ${(e as Error).message}`);
    const { line, column } = lineColumn(text, problem.offset);
    throw new RecipeError(file, `line ${line}, column ${column}`, `invalid JSON: ${problem.message}`, { cause: e });
  }
}

/**
 * Read a session file's text. `file` names it in errors and gives the name of a legacy file
 * (its base name without `.json`). Throws RecipeError, naming the file and where, for bad
 * JSON, wrong shapes, and versions other than 1.
 */
export function parseRecipe(text: string, file: string): Recipe {
  const doc = parseJson(text.replace(/^\uFEFF/, ''), file);
  if (!isObject(doc)) throw new RecipeError(file, null, 'expected a JSON object at the top level');
  const fallbackName = path.basename(file).replace(/\.json$/i, '');

  // A number `version` marks the versioned form; a legacy file never has one (its values are lists).
  if (typeof doc.version !== 'number') {
    return { name: fallbackName, dirs: parseDirs(doc, '', file) };
  }
  if (doc.version > RECIPE_VERSION) {
    throw new RecipeError(
      file,
      null,
      `written by a newer fleetcom (version ${doc.version}); this one reads version ${RECIPE_VERSION}`,
    );
  }
  if (doc.version !== RECIPE_VERSION) {
    throw new RecipeError(file, 'version', `unknown version ${doc.version}; this fleetcom reads version ${RECIPE_VERSION}`);
  }
  const problem = versionedProblem(doc);
  if (problem !== null) throw new RecipeError(file, problem.key, problem.message);
  const name = normalizeSessionName((doc.name as string | undefined) ?? '');
  const recipe: Recipe = { name: name === '' ? fallbackName : name, dirs: parseDirs(doc.dirs as JsonObject, 'dirs', file) };
  if (doc.closed === true) recipe.closed = true;
  return recipe;
}

// ---- writing ------------------------------------------------------------------------------

type WrittenEntry = string | { cmd: string; group: string | null; name: string | null; env?: AgentHomes };

function writeEntry(entry: RecipeEntry, home: string): WrittenEntry {
  const group = normalizeGroup(entry.group);
  const name = normalizeLabel(entry.name);
  const env = homesToWrite(entry.env, home);
  if (env !== null) return { cmd: entry.cmd, group, name, env };
  return group === null && name === null ? entry.cmd : { cmd: entry.cmd, group, name };
}

/**
 * The versioned form: 2-space indent, trailing newline, directories sorted by their written
 * form, HOME written `~` and paths under it `~/…`. An entry is its command string unless it
 * has a group, a name or an agent home other than HOME's default, then `{"cmd", "group",
 * "name"}` with null for the unset one, and `"env"` when a home is kept.
 */
export function serializeRecipe(recipe: Recipe, home: string): string {
  const merged = new Map<string, WrittenEntry[]>();
  for (const [dir, entries] of recipe.dirs) {
    const key = abbreviateDir(dir, home);
    const list = merged.get(key) ?? [];
    list.push(...entries.map((entry) => writeEntry(entry, home)));
    merged.set(key, list);
  }
  const keys = [...merged.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const doc = {
    version: RECIPE_VERSION,
    name: recipe.name,
    ...(recipe.closed === true ? { closed: true } : {}),
    // fromEntries defines own properties, so even a directory named `__proto__` survives.
    dirs: Object.fromEntries(keys.map((k) => [k, merged.get(k) ?? []])),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
