// What a runtime dir's lock says about its supervisor, read by `up` (to judge the lock) and by
// every client (to name the supervisor that did not answer, and to see at once that it is
// stopped). Zod-free and small: `ls` loads it. The file is input: a line of any other shape
// names no one.
import { readFileSync } from 'node:fs';
import { fieldsOf, startTimeOf } from '../ownership/proc.js';

export interface LockRecord {
  pid: number;
  start: string | null;
  command: string;
}

/** A lock's text read back (untrusted): null when it names no pid. */
export function parseLock(text: string): LockRecord | null {
  const [first = '', ...rest] = text.split('\n');
  if (!/^\d{1,10}$/.test(first.trim())) return null;
  const pid = Number(first.trim());
  if (pid <= 0) return null;
  const field = (name: string) => rest.find((l) => l.startsWith(`${name} `))?.slice(name.length + 1) ?? null;
  const start = field('start');
  return { pid, start: start !== null && /^\d+$/.test(start) ? start : null, command: field('command') ?? '' };
}

export function readLock(file: string): LockRecord | null {
  try {
    return parseLock(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The lock's supervisor as it is now: its pid, and whether it is stopped (SIGSTOP, Ctrl-Z, a debugger). */
export interface LockedSupervisor {
  pid: number;
  /** `/proc/<pid>/stat` state T or t: it cannot answer until someone continues it. */
  stopped: boolean;
}

/**
 * The live process the lock names (null: no lock, or its pid is gone or now another
 * process's, told by the start time the lock recorded).
 */
export function lockedSupervisor(file: string, proc = '/proc'): LockedSupervisor | null {
  const record = readLock(file);
  if (record === null) return null;
  let stat: string;
  try {
    stat = readFileSync(`${proc}/${record.pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  if (record.start !== null && startTimeOf(stat) !== record.start) return null;
  if (endedState(stat)) return null;
  return { pid: record.pid, stopped: stoppedState(stat) };
}

/** The process is stopped (state T or t in `/proc/<pid>/stat`); false when it cannot be read. */
export function processStopped(pid: number, proc = '/proc'): boolean {
  try {
    return stoppedState(readFileSync(`${proc}/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The process has ended but is not reaped yet (state Z, or X while it goes): false when it
 * cannot be read, so a system without /proc goes by the pid alone as before.
 */
export function processEnded(pid: number, proc = '/proc'): boolean {
  try {
    return endedState(readFileSync(`${proc}/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function endedState(stat: string): boolean {
  const state = fieldsOf(stat)?.[0];
  return state === 'Z' || state === 'X';
}

function stoppedState(stat: string): boolean {
  const state = fieldsOf(stat)?.[0];
  return state === 'T' || state === 't';
}
