// One recipe entry and a directory's list of them, read and written; shared by the recipe
// of this machine (recipe.ts) and the recipes of other hosts in it (recipe-hosts.ts). Pure.
import { agentHomesProblem, homesToWrite, type AgentHomes } from './agent-homes.js';
import { RecipeError } from './errors.js';
import { abbreviateDir } from './names.js';
import { worktreeRecordProblem, type WorktreeRecord } from '../worktree-record.js';

/** A worktree entry's worktree: its path is the entry's directory. `repo` as written (`~/src/api`) until expanded. */
export type EntryWorktree = Omit<WorktreeRecord, 'path'>;

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
  /** The git worktree the task runs in, made again at the entry's directory when it is gone. */
  worktree?: EntryWorktree;
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

export type JsonObject = Record<string, unknown>;
export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

// The shapes below are checked by hand, not with zod: `save NAME` reads the file it replaces,
// and zod's evaluation alone costs more than save's budget over `--version`
// (docs/performance.md). Each check reports the first problem, in the order the keys are listed.

/** A label (`group`, `name`): absent, null or a string. */
const labelProblem = (value: unknown): string | null =>
  value === undefined || value === null || typeof value === 'string' ? null : 'expected a string or null';

function cmdProblem(value: unknown): string | null {
  if (value === undefined) return 'missing: every entry needs a command';
  if (typeof value !== 'string') return 'expected a string';
  return value.trim() === '' ? 'expected a non-empty command' : null;
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
export function parseEntry(value: unknown, at: () => string, file: string): RecipeEntry {
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
  const { cmd, group, name, env, worktree } = value as { cmd: string; group?: string | null; name?: string | null; env?: unknown; worktree?: unknown };
  const entry: RecipeEntry = { cmd, group: normalizeGroup(group), name: normalizeLabel(name) };
  if (worktree !== undefined && worktree !== null) {
    const problem = worktreeRecordProblem(worktree, false);
    if (problem !== null) throw new RecipeError(file, formatIssuePath(problem.key === '' ? ['worktree'] : ['worktree', problem.key], where), problem.message);
    const w = worktree as EntryWorktree;
    entry.worktree = { repo: w.repo, branch: w.branch, base: w.base, baseRef: w.baseRef ?? null };
  }
  if (env === undefined || env === null) return entry;
  const problem = agentHomesProblem(env);
  if (problem !== null) {
    throw new RecipeError(file, formatIssuePath(problem.key === null ? ['env'] : ['env', problem.key], where), problem.message);
  }
  return { ...entry, env: env as AgentHomes };
}

export function parseDirs(dirs: JsonObject, prefix: string, file: string): Map<string, RecipeEntry[]> {
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

export type WrittenEntry = string | { cmd: string; group: string | null; name: string | null; env?: AgentHomes; worktree?: EntryWorktree };

/**
 * An entry as written: its command string unless it has a group, a name or an agent home, then
 * `{"cmd", "group", "name"}` (and `"env"`). With `home` null (a host's entry, whose HOME is
 * not this machine's) its homes are written as the host wrote them.
 */
export function writeEntry(entry: RecipeEntry, home: string | null): WrittenEntry {
  const group = normalizeGroup(entry.group);
  const name = normalizeLabel(entry.name);
  const env = home === null ? (entry.env !== undefined && Object.keys(entry.env).length > 0 ? entry.env : null) : homesToWrite(entry.env, home);
  const worktree = entry.worktree === undefined ? {} : { worktree: { ...entry.worktree, repo: home === null ? entry.worktree.repo : abbreviateDir(entry.worktree.repo, home) } };
  if (env !== null) return { cmd: entry.cmd, group, name, env, ...worktree };
  if (entry.worktree !== undefined) return { cmd: entry.cmd, group, name, ...worktree };
  return group === null && name === null ? entry.cmd : { cmd: entry.cmd, group, name };
}


/** The order of directories and hosts in a written file. */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
