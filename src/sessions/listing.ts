// `fleetcom sessions`: what the session directory holds. A file that cannot be read is listed
// with its error instead of failing the whole listing.
import path from 'node:path';
import { parseRecoveryFileName, recoveryLabel } from './names.js';
import { countTasks, type Recipe } from './recipe.js';
import { recoveryDir } from './recovery.js';
import { defaultFs, namesIn, readRecipeFile, type StoreFs } from './store.js';

export interface SavedSession {
  name: string;
  file: string;
  /** Number of commands, or null when the file could not be read. */
  tasks: number | null;
  modified: Date;
  /** Why the file could not be read, else null. */
  error: string | null;
}

export interface RecoveryEntry {
  file: string;
  label: string;
  tasks: number | null;
  modified: Date;
  /** Written by `down` as its last snapshot. */
  closed: boolean;
  /** The supervisor that wrote it, and when that supervisor started (from the file name). */
  pid: number;
  startedAt: Date;
  error: string | null;
}

export interface SessionListing {
  /** Saved sessions, most recently modified first. */
  saved: SavedSession[];
  /** Recovery snapshots, most recently modified first (newest start time breaks ties). */
  recovery: RecoveryEntry[];
}

type Loaded = { recipe: Recipe; error: null } | { recipe: null; error: string };

async function load(file: string, fs: StoreFs): Promise<Loaded> {
  try {
    return { recipe: await readRecipeFile(file, fs), error: null };
  } catch (e) {
    return { recipe: null, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Plain files (following symlinks) in `dir` accepted by `keep`, with their mtime. */
async function filesIn(dir: string, keep: (name: string) => boolean, fs: StoreFs): Promise<{ file: string; modified: Date }[]> {
  const names = await namesIn(dir, fs);
  const out: { file: string; modified: Date }[] = [];
  for (const name of names.filter(keep).sort()) {
    const file = path.join(dir, name);
    try {
      const st = await fs.stat(file);
      if (st.isFile()) out.push({ file, modified: st.mtime });
    } catch {
      // Removed meanwhile, or a dangling link: not a session.
    }
  }
  return out;
}

const newestFirst = (a: { modified: Date; file: string }, b: { modified: Date; file: string }): number =>
  b.modified.getTime() - a.modified.getTime() || (a.file < b.file ? 1 : a.file > b.file ? -1 : 0);

export async function listSessions(sessionDir: string, fs: StoreFs = defaultFs): Promise<SessionListing> {
  const savedFiles = await filesIn(sessionDir, (n) => n.endsWith('.json') && !n.startsWith('.'), fs);
  const saved: SavedSession[] = [];
  for (const { file, modified } of savedFiles) {
    const { recipe, error } = await load(file, fs);
    saved.push({
      name: recipe?.name ?? path.basename(file, '.json'),
      file,
      tasks: recipe === null ? null : countTasks(recipe),
      modified,
      error,
    });
  }

  const snapshotFiles = await filesIn(recoveryDir(sessionDir), (n) => parseRecoveryFileName(n) !== null, fs);
  const recovery: RecoveryEntry[] = [];
  for (const { file, modified } of snapshotFiles) {
    const { startedAt, pid } = parseRecoveryFileName(path.basename(file)) ?? { startedAt: modified, pid: 0 };
    const { recipe, error } = await load(file, fs);
    recovery.push({
      file,
      label: recipe?.name ?? recoveryLabel(startedAt),
      tasks: recipe === null ? null : countTasks(recipe),
      modified,
      closed: recipe?.closed === true,
      pid,
      startedAt,
      error,
    });
  }
  return { saved: saved.sort(newestFirst), recovery: recovery.sort(newestFirst) };
}
