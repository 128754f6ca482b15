// Who a pid is: its start time and command line from /proc. A pid alone names a process only
// while it lives; the kernel hands it out again later, so a lock that recorded only the pid
// would take any later process with that number for its supervisor.
import { readFileSync } from 'node:fs';
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

/** A process exists (EPERM: it does, owned by someone else). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}
