// Which recovery snapshot `recover` loads and when `up` points at one (product.md §2, §5).
// Pure: the listing, the running supervisor's pid and a liveness probe come in.
import type { RecoveryEntry } from '../sessions/index.js';

/**
 * The newest readable snapshot that the supervisor with pid `ownPid` did not write itself
 * (the listing is newest first), or null.
 */
export function newestForeignSnapshot(recovery: readonly RecoveryEntry[], ownPid: number | null): RecoveryEntry | null {
  return recovery.find((entry) => entry.pid !== ownPid && entry.error === null) ?? null;
}

/**
 * The snapshot a starting `up` with an empty fleet should point at: the one `recover` would
 * load, when it was not closed by `down` and its supervisor is not running.
 */
export function abandonedSnapshot(
  recovery: readonly RecoveryEntry[],
  ownPid: number,
  isAlive: (pid: number) => boolean,
): RecoveryEntry | null {
  const candidate = newestForeignSnapshot(recovery, ownPid);
  if (candidate === null || candidate.closed || (candidate.tasks ?? 0) === 0 || isAlive(candidate.pid)) return null;
  return candidate;
}

/** Whether a process exists (EPERM: it does, owned by someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
