// Other hosts' entries in a recipe: `"hosts": {"<host>": {"<dir>": [<entry>, …]}}`, in a file of
// version 2 (an older fleetcom refuses it with a message naming both versions, instead of
// loading its local entries alone). A directory and an agent home there are the host's own, as
// its fleetcom wrote them (`~` is that host's HOME), so they are kept and written verbatim.
// A file without hosts is version 1 and means this machine. Pure.
import { hostProblem } from '../remote/host-name.js';
import { RecipeError } from './errors.js';
import { byCodeUnits, formatIssuePath, isObject, parseDirs, writeEntry, type JsonObject, type RecipeEntry, type WrittenEntry } from './recipe-entries.js';

export const HOSTS_RECIPE_VERSION = 2;

/** Host → its directories (as written) → their entries. */
export type HostDirs = Map<string, Map<string, RecipeEntry[]>>;

export function parseHostDirs(hosts: JsonObject, file: string): HostDirs {
  const out: HostDirs = new Map();
  for (const [host, dirs] of Object.entries(hosts)) {
    const where = formatIssuePath([host], 'hosts');
    const problem = hostProblem(host);
    if (problem !== null) throw new RecipeError(file, where, `not a host: ${problem}`);
    if (!isObject(dirs)) throw new RecipeError(file, where, 'expected an object mapping directories to lists of commands');
    out.set(host, parseDirs(dirs, where, file));
  }
  return out;
}

/** A host's directories as written: sorted, each as the host wrote it. */
export function writeDirsVerbatim(dirs: ReadonlyMap<string, readonly RecipeEntry[]>): Record<string, WrittenEntry[]> {
  return Object.fromEntries([...dirs.keys()].sort(byCodeUnits).map((dir) => [dir, (dirs.get(dir) ?? []).map((e) => writeEntry(e, null))]));
}

export function writeHostDirs(hosts: HostDirs): Record<string, Record<string, WrittenEntry[]>> {
  return Object.fromEntries([...hosts.keys()].sort(byCodeUnits).map((host) => [host, writeDirsVerbatim(hosts.get(host) ?? new Map())]));
}
