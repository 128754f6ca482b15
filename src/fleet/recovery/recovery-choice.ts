// Which recovery snapshot `recover` loads and which ones `up` points at.
// Pure: the listing, the running supervisor's pid and a liveness probe come in. A snapshot
// closed by `down` needs no recovery; any other may be a crashed fleet's only record, so a
// newer clean one never hides it.
import type { RecoveryEntry } from '../../sessions/index.js';

/**
 * The newest readable snapshot not closed by `down` that the supervisor with pid `ownPid` did
 * not write itself (the listing is newest first), or null.
 */
export function newestUnclosedSnapshot(recovery: readonly RecoveryEntry[], ownPid: number | null): RecoveryEntry | null {
  return recovery.find((entry) => entry.pid !== ownPid && entry.error === null && !entry.closed) ?? null;
}

/**
 * The snapshots a starting `up` with an empty fleet should name, newest first: every one not
 * closed by `down`, holding tasks (or unreadable), whose supervisor is not running.
 */
export function abandonedSnapshots(
  recovery: readonly RecoveryEntry[],
  ownPid: number,
  isAlive: (pid: number) => boolean,
): RecoveryEntry[] {
  return recovery.filter((entry) =>
    entry.pid !== ownPid && !entry.closed && (entry.error !== null || (entry.tasks ?? 0) > 0) && !isAlive(entry.pid));
}
