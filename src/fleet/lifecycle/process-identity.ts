// Who a pid is: its start time and command line from /proc. A pid alone names a process only
// while it lives; the kernel hands it out again later, so a lock that recorded only the pid
// would take any later process with that number for its supervisor.
import { readFileSync } from 'node:fs';
import { processEnded } from '../../control/lock-record.js';
import { startTimeOf } from '../../ownership/proc.js';

export interface ProcessIdentity {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot), or null where /proc is missing. */
  start: string | null;
  /** The command line, words joined by spaces, or '' when unreadable. */
  command: string;
}

export function identityOf(pid: number): ProcessIdentity | null {
  if (!processExists(pid)) return null;
  return { pid, start: startTimeOf(readProc(pid, 'stat')), command: readProc(pid, 'cmdline').split('\0').filter(Boolean).join(' ') };
}

/**
 * The live process a record names by pid and start time, other than this one: null when it is
 * gone or the pid is now another process's (its start differs). Without a recorded start (an
 * older record, or no /proc) the pid is all there is to go by.
 */
export function liveOther(record: { pid: number; start: string | null }, identify = identityOf): ProcessIdentity | null {
  if (record.pid === process.pid) return null;
  const live = identify(record.pid);
  if (live === null) return null;
  if (record.start !== null && live.start !== null && live.start !== record.start) return null;
  return live;
}

/**
 * A process exists and has not ended (EPERM: it does, owned by someone else). Signal 0 also
 * reaches a zombie — an ended process its parent has not waited for yet, which lingers while
 * PID 1 reaps late, or forever in a container without an init — so its state is read too: a
 * zombie holds no lock, snapshot or conversation.
 */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !processEnded(pid);
}

function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}
