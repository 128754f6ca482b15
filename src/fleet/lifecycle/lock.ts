// One supervisor per runtime dir: a lock file naming the supervisor by pid, process start time
// and command. A lock whose process is gone (or is another process with a reused pid) and
// whose socket does not answer is stale and taken over; the takeover is atomic, so of many
// `up` racing for one stale lock exactly one wins and none removes the winner's socket.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { callSupervisor } from '../../control/client.js';
import { parseLock, processStopped, type LockRecord } from '../../control/lock-record.js';
import { FleetError } from '../../errors.js';
import { createWhole, removeFile } from '../../fs-safety.js';
import type { RuntimeFiles } from '../../paths.js';
import { identityOf, liveOther, type ProcessIdentity } from './process-identity.js';

export { parseLock } from '../../control/lock-record.js';

/** How long a loser waits for the socket of a winner that is still starting. */
const STARTING_MS = 15_000;
/** How long a taker waits for another taker's takeover to finish before giving up. */
const TAKEOVER_MS = 20_000;

/** The lock's text: the pid on the first line (what earlier versions read), then named lines. */
export function lockText(me: ProcessIdentity): string {
  return `${me.pid}\nstart ${me.start ?? '-'}\ncommand ${me.command.replace(/\n/g, ' ')}\ntoken ${randomBytes(8).toString('hex')}\n`;
}

/** The live process a lock names, or null when it is gone or a different process took its pid. */
export function lockHolder(record: LockRecord | null, identify = identityOf): ProcessIdentity | null {
  return record === null ? null : liveOther(record, identify);
}

/**
 * `waitMs`: how long a live holder that does not answer yet may take to start answering (the
 * runtime guard, retaking its own lock, does not wait).
 */
export async function acquireLock(files: RuntimeFiles, pid: number, waitMs = STARTING_MS): Promise<void> {
  const me = identityOf(pid) ?? { pid, start: null, command: '' };
  const blocked = await claim(files.lock, lockText(me), (text) => fleetHolding(files, text, waitMs), Date.now() + TAKEOVER_MS);
  if (blocked !== null) throw blocked;
}

/** An error naming the tmux session of the running fleet, or null when the lock is stale. */
export async function runningFleet(files: RuntimeFiles): Promise<FleetError | null> {
  return fleetHolding(files, readOrNull(files.lock) ?? '', 0);
}

export function releaseLock(files: RuntimeFiles, pid: number): void {
  if (parseLock(readOrNull(files.lock) ?? '')?.pid === pid) removeFile(files.lock);
}

/**
 * Makes `file` hold `text`. Returns null once it does, or the reason it is held by someone
 * else (from `held`). A stale file is removed only by the one taker that creates
 * `<file>.break-<digest of its text>`, the same way, so two takers never both remove it (the
 * slower would remove the winner's fresh file); a taker killed mid-takeover leaves a break
 * file that is itself stale and broken the same way.
 */
async function claim(file: string, text: string, held: (current: string) => Promise<FleetError | null>, deadline: number): Promise<FleetError | null> {
  for (;;) {
    if (createWhole(file, text)) return null;
    const current = readOrNull(file);
    if (current === null) continue; // released meanwhile
    const reason = await held(current);
    if (reason !== null) return reason;
    const breaker = `${file}.break-${createHash('sha256').update(current).digest('hex').slice(0, 16)}`;
    const busy = await claim(breaker, text, async (other) => (lockHolder(parseLock(other)) ? new FleetError('taking over') : null), deadline);
    if (busy === null) {
      try {
        // Still the stale text (no other taker can have replaced it): remove it.
        if (readOrNull(file) === current) removeFile(file);
      } finally {
        removeFile(breaker);
      }
    } else if (Date.now() > deadline) {
      throw new FleetError(`could not take the lock ${file}: another fleetcom up keeps taking it over`);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The running-fleet error for a lock holding `text`, or null when it is stale. */
async function fleetHolding(files: RuntimeFiles, text: string, waitMs: number): Promise<FleetError | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const status = await callSupervisor(files.socket, { op: 'status' }).catch(() => null);
    // This very process answering (the runtime guard retaking its lock) holds nothing against itself.
    if (status !== null && status.pid !== process.pid) {
      return new FleetError(`a fleet is already running in tmux session '${status.tmuxSessionName}' (runtime dir ${files.dir}): its supervisor is pid ${status.pid}, control socket ${files.socket}`);
    }
    const holder = lockHolder(parseLock(text));
    if (holder === null) return null;
    if (processStopped(holder.pid)) {
      return new FleetError(`a fleet is already running: its supervisor (pid ${holder.pid}) holds ${files.lock} but is stopped; continue it with: kill -CONT ${holder.pid}`);
    }
    // A supervisor that won the lock a moment ago answers once its socket is up.
    if (Date.now() >= deadline) {
      return new FleetError(
        `a fleet is already running: its supervisor (pid ${holder.pid}: ${holder.command || '?'}) holds ${files.lock} ` +
          'but does not answer; stop that process, or remove the lock if it is not a fleetcom supervisor',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Released or replaced while we waited: the caller looks again (and never removes a lock
    // whose text it did not judge).
    if (readOrNull(files.lock) !== text) return null;
  }
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
