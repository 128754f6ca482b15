// The session file ("recipe") format. Pure: text in,
// recipe out and back; the store (store.ts) does the reading and writing.
//
// Versioned: {"version": 1, "name": "…", "closed"?: true, "dirs": {"<dir>": [<entry>, …]}}
// With hosts: {"version": 2, …, "dirs": {…}, "hosts": {"<host>": {"<dir>": [<entry>, …]}}}
//             (recipe-hosts.ts; `dirs` is this machine's; a file without hosts stays version 1)
// Legacy:    {"<dir>": [<entry>, …]}
// Entry:     "<command>" | {"cmd": "<command>", "group": string|null, "name": string|null,
//             "env"?: {"CLAUDE_CONFIG_DIR" | "CODEX_HOME" | "GROK_HOME": "<dir>"}}
//             (+ "worktree": {"repo": "~/src/api", "branch", "base": "<commit>", "baseRef"}: the entry runs in
//             that git worktree, whose path is the entry's directory)
import path from 'node:path';
import { RecipeError } from './errors.js';
import { lineColumn, locateJsonError } from './json-location.js';
import { abbreviateDir } from './names.js';
import { byCodeUnits, isObject, parseDirs, writeEntry, type JsonObject, type RecipeEntry, type WrittenEntry } from './recipe-entries.js';
import { HOSTS_RECIPE_VERSION, parseHostDirs, writeDirsVerbatim, writeHostDirs, type HostDirs } from './recipe-hosts.js';

export {
  formatIssuePath, MAX_LABEL_CHARS, normalizeGroup, normalizeLabel, normalizeSessionName, UNASSIGNED_GROUP, type RecipeEntry,
} from './recipe-entries.js';
export { HOSTS_RECIPE_VERSION, type HostDirs } from './recipe-hosts.js';
import { normalizeSessionName } from './recipe-entries.js';

/** The version of a file without hosts, the form every fleetcom reads. */
export const RECIPE_VERSION = 1;

export interface Recipe {
  name: string;
  /** This machine's directories as written in the file (`~/x`, `/abs`, or relative) → their entries, in order. */
  dirs: Map<string, RecipeEntry[]>;
  /** Other hosts' directories (as each host wrote them), by host; absent or empty: none. */
  hosts?: HostDirs;
  /** Only on a final recovery snapshot written by `down`. */
  closed?: boolean;
}

export function countTasks(recipe: Recipe): number {
  let n = 0;
  for (const entries of recipe.dirs.values()) n += entries.length;
  for (const dirs of recipe.hosts?.values() ?? []) for (const entries of dirs.values()) n += entries.length;
  return n;
}

// ---- parsing ------------------------------------------------------------------------------

/** The versioned form's own keys (`version` is already known to be a number). */
function versionedProblem(doc: JsonObject): { key: string; message: string } | null {
  if (doc.name !== undefined && typeof doc.name !== 'string') return { key: 'name', message: 'expected a string' };
  if (doc.closed !== undefined && typeof doc.closed !== 'boolean') return { key: 'closed', message: 'expected true or false' };
  if (!isObject(doc.dirs)) return { key: 'dirs', message: 'expected an object mapping directories to lists of commands' };
  if (doc.hosts !== undefined && doc.version === RECIPE_VERSION) return { key: 'hosts', message: `a file with hosts is version ${HOSTS_RECIPE_VERSION} (an older fleetcom would load it without them)` };
  if (doc.version === HOSTS_RECIPE_VERSION && !isObject(doc.hosts)) return { key: 'hosts', message: 'expected an object mapping hosts to their directories' };
  return null;
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
 * JSON, wrong shapes, and versions other than 1 and 2.
 */
export function parseRecipe(text: string, file: string): Recipe {
  const doc = parseJson(text.replace(/^\uFEFF/, ''), file);
  if (!isObject(doc)) throw new RecipeError(file, null, 'expected a JSON object at the top level');
  const fallbackName = path.basename(file).replace(/\.json$/i, '');

  // A number `version` marks the versioned form; a legacy file never has one (its values are lists).
  if (typeof doc.version !== 'number') {
    return { name: fallbackName, dirs: parseDirs(doc, '', file) };
  }
  if (doc.version > HOSTS_RECIPE_VERSION) {
    throw new RecipeError(
      file,
      null,
      `written by a newer fleetcom (version ${doc.version}); this one reads versions ${RECIPE_VERSION} and ${HOSTS_RECIPE_VERSION}`,
    );
  }
  if (doc.version !== RECIPE_VERSION && doc.version !== HOSTS_RECIPE_VERSION) {
    throw new RecipeError(file, 'version', `unknown version ${doc.version}; this fleetcom reads versions ${RECIPE_VERSION} and ${HOSTS_RECIPE_VERSION}`);
  }
  const problem = versionedProblem(doc);
  if (problem !== null) throw new RecipeError(file, problem.key, problem.message);
  const name = normalizeSessionName((doc.name as string | undefined) ?? '');
  const recipe: Recipe = { name: name === '' ? fallbackName : name, dirs: parseDirs(doc.dirs as JsonObject, 'dirs', file) };
  if (doc.closed === true) recipe.closed = true;
  if (isObject(doc.hosts)) recipe.hosts = parseHostDirs(doc.hosts, file);
  return recipe;
}

// ---- writing ------------------------------------------------------------------------------

/**
 * The versioned form: 2-space indent, trailing newline, directories sorted by their written
 * form, HOME written `~` and paths under it `~/…`. An entry is its command string unless it
 * has a group, a name or an agent home other than HOME's default, then `{"cmd", "group",
 * "name"}` with null for the unset one, and `"env"` when a home is kept. Other hosts' entries
 * follow in `hosts` (version 2), as each host wrote them: its HOME is not this one.
 */
export function serializeRecipe(recipe: Recipe, home: string): string {
  const merged = new Map<string, WrittenEntry[]>();
  for (const [dir, entries] of recipe.dirs) {
    const key = abbreviateDir(dir, home);
    const list = merged.get(key) ?? [];
    list.push(...entries.map((entry) => writeEntry(entry, home)));
    merged.set(key, list);
  }
  const keys = [...merged.keys()].sort(byCodeUnits);
  const hosts = recipe.hosts !== undefined && recipe.hosts.size > 0 ? recipe.hosts : null;
  const doc = {
    version: hosts === null ? RECIPE_VERSION : HOSTS_RECIPE_VERSION,
    name: recipe.name,
    ...(recipe.closed === true ? { closed: true } : {}),
    // fromEntries defines own properties, so even a directory named `__proto__` survives.
    dirs: Object.fromEntries(keys.map((k) => [k, merged.get(k) ?? []])),
    ...(hosts === null ? {} : { hosts: writeHostDirs(hosts) }),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** A host's own part of a recipe, as the version-1 file its fleetcom reads (`load -`, `doctor -`): written as the host wrote it. */
export function hostRecipeText(name: string, dirs: ReadonlyMap<string, RecipeEntry[]>): string {
  const doc = {
    version: RECIPE_VERSION,
    name,
    dirs: writeDirsVerbatim(dirs),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
