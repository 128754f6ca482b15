// Recovery snapshots: one file per supervisor incarnation,
// `<session dir>/recovery/<YYYYMMDD-HHMMSS>-<pid>.json`, named `autosaved YYYY-MM-DD HH:MM`.
// When to write is the supervisor's business; this file only writes and prunes.
import path from 'node:path';
import { parseRecoveryFileName, recoveryFileName, recoveryLabel } from './names.js';
import { serializeRecipe, type Recipe } from './recipe.js';
import { defaultFs, namesIn, readRecipeFile, type StoreFs } from './store.js';

export const RECOVERY_KEEP = 10;
/** An unclosed snapshot is never pruned while it was written less than this long ago. */
export const UNCLOSED_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

export function recoveryDir(sessionDir: string): string {
  return path.join(sessionDir, 'recovery');
}

/** The snapshot's path and text, without writing (the supervisor can skip unchanged content). */
export function recoverySnapshot(
  sessionDir: string,
  startedAt: Date,
  pid: number,
  recipe: Recipe,
  home: string,
): { file: string; text: string } {
  const named: Recipe = { ...recipe, name: recoveryLabel(startedAt) };
  return {
    file: path.join(recoveryDir(sessionDir), recoveryFileName(startedAt, pid)),
    text: serializeRecipe(named, home),
  };
}

/**
 * Keep the newest `keep` snapshots by the start time in their names (pid breaks ties) and
 * delete the rest, except a snapshot that is not closed (or cannot be read) and was written
 * within `UNCLOSED_KEEP_MS`: it may be the only record of a fleet that crashed, and a few
 * clean up/down cycles must not push it out. Only files named like a snapshot are considered;
 * anything else in the directory is left alone. Returns the deleted paths.
 */
export async function pruneRecovery(sessionDir: string, keep = RECOVERY_KEEP, fs: StoreFs = defaultFs, now = Date.now()): Promise<string[]> {
  const dir = recoveryDir(sessionDir);
  const names = await namesIn(dir, fs);
  const snapshots = names
    .map((name) => ({ name, parsed: parseRecoveryFileName(name) }))
    .filter((s): s is { name: string; parsed: NonNullable<typeof s.parsed> } => s.parsed !== null)
    .sort((a, b) => b.parsed.startedAt.getTime() - a.parsed.startedAt.getTime() || b.parsed.pid - a.parsed.pid);
  const deleted: string[] = [];
  for (const { name } of snapshots.slice(Math.max(0, Math.floor(keep)))) {
    const file = path.join(dir, name);
    try {
      if (await unclosedAndRecent(file, fs, now)) continue;
      await fs.unlink(file);
      deleted.push(file);
    } catch {
      // Gone already (another supervisor pruned it) or not a plain file: leave it.
    }
  }
  return deleted;
}

async function unclosedAndRecent(file: string, fs: StoreFs, now: number): Promise<boolean> {
  const { mtime } = await fs.stat(file);
  if (now - mtime.getTime() >= UNCLOSED_KEEP_MS) return false;
  try {
    return (await readRecipeFile(file, fs)).closed !== true;
  } catch {
    return true; // unreadable: not known to be closed
  }
}
