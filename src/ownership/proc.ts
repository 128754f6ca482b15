import * as fs from 'node:fs';
import * as path from 'node:path';

// What fleetcom reads of other processes, from a proc file system whose root is passed in
// (`/proc`; tests pass a crafted tree). Nothing here throws: a process that vanished or
// belongs to someone else reads as absent or unreadable, never as an error.

export const PROC_ROOT = '/proc';

/** Where a live process sits, to tell the user where a conversation is open. */
export interface ProcessPlace {
  pid: number;
  /** Its terminal (`/dev/pts/3`), from its standard input; null when unknown. */
  tty: string | null;
  /** The tmux pane it runs in, from its inherited TMUX and TMUX_PANE; null outside tmux. */
  tmux: { socket: string; pane: string } | null;
  /** What the process is, when that says more than its pid (a daemon serving many sessions). */
  role?: string;
}

/** Is a conversation open in some process: defined here, below both readers of liveness. */
export type Liveness =
  | { state: 'free'; source: string }
  | { state: 'live'; source: string; holder: ProcessPlace }
  | { state: 'unknown'; source: string; why: string };

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The fields of a `/proc/<pid>/stat` line after `pid (comm)`: comm may hold spaces and `)`. */
export function fieldsOf(stat: string): string[] | null {
  const close = stat.lastIndexOf(')');
  return close === -1 ? null : stat.slice(close + 1).trim().split(/\s+/);
}

function statFields(proc: string, pid: number): string[] | null {
  const text = readText(path.join(proc, String(pid), 'stat'));
  return text === null ? null : fieldsOf(text);
}

/**
 * Field 22 of a stat line: the start time in clock ticks after boot, as text. With the pid it
 * names one process for good — the kernel hands a pid out again, never with the same start.
 */
export function startTimeOf(stat: string): string | null {
  // fields[0] is field 3 (state), so field 22 is fields[19].
  const start = fieldsOf(stat)?.[19];
  return start !== undefined && /^\d+$/.test(start) ? start : null;
}

/** A running process (a zombie has ended: it holds no conversation any more). */
export function isRunning(proc: string, pid: number): boolean {
  const fields = statFields(proc, pid);
  return fields !== null && fields[0] !== 'Z' && fields[0] !== 'X';
}

/** The parent's pid (field 4 of `/proc/<pid>/stat`), or null. */
export function parentPid(proc: string, pid: number): number | null {
  const ppid = Number(statFields(proc, pid)?.[1]);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : null;
}

/**
 * Field 22 of `/proc/<pid>/stat`, the start time in clock ticks after boot, as text: what
 * claude records as `procStart` (measured on 2.1.197: it reads the same field), so a record
 * whose pid was reused by another process is recognised.
 */
export function startTicks(proc: string, pid: number): string | null {
  const text = readText(path.join(proc, String(pid), 'stat'));
  return text === null ? null : startTimeOf(text);
}

export function placeOf(proc: string, pid: number): ProcessPlace {
  return { pid, tty: ttyOf(proc, pid), tmux: tmuxOf(proc, pid) };
}

function ttyOf(proc: string, pid: number): string | null {
  try {
    const target = fs.readlinkSync(path.join(proc, String(pid), 'fd', '0'));
    return target.startsWith('/dev/') ? target : null;
  } catch {
    return null;
  }
}

function tmuxOf(proc: string, pid: number): ProcessPlace['tmux'] {
  const env = environOf(proc, pid);
  return env === null ? null : tmuxPlaceOf(env);
}

/** The tmux server socket and pane named by an environment's TMUX and TMUX_PANE, or null. */
export function tmuxPlaceOf(env: Readonly<Record<string, string>>): ProcessPlace['tmux'] {
  const socket = env.TMUX?.split(',')[0];
  const pane = env.TMUX_PANE;
  return socket && pane && /^%\d+$/.test(pane) ? { socket, pane } : null;
}

/**
 * `/proc/<pid>/environ` as a map (the first of a name repeated wins, as getenv finds it), or
 * null when it cannot be read (another user's process).
 */
export function environOf(proc: string, pid: number): Record<string, string> | null {
  const text = readText(path.join(proc, String(pid), 'environ'));
  if (text === null) return null;
  const env: Record<string, string> = {};
  for (const pair of text.split('\0')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && !Object.hasOwn(env, pair.slice(0, eq))) env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

/**
 * Whether there is a proc tree to read at all (none on macOS). One stat, where listing every
 * pid (`processIds`) would read a directory of hundreds of entries to ask the same.
 */
export function hasProcTree(proc: string): boolean {
  try {
    return fs.statSync(proc).isDirectory();
  } catch {
    return false;
  }
}

/** The pids of the proc tree, or null when it cannot be listed (no /proc here). */
export function processIds(proc: string): number[] | null {
  try {
    return fs.readdirSync(proc).filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return null;
  }
}

/** Which process has each file open (the first found), and how many could not be looked into. */
export interface OpenFiles {
  holders: Map<string, number>;
  /** Processes whose descriptors could not be listed (another user's, as a non-root user). */
  unreadable: number;
}

/**
 * Every open file of every process, through the `/proc/<pid>/fd` links; `keep` picks the paths
 * worth remembering. One pass serves a whole load (170 processes took ~80 ms on a busy 2-core
 * machine: once per codex entry would add up). Null when the proc tree cannot be listed.
 */
export function openFiles(proc: string, keep: (target: string) => boolean): OpenFiles | null {
  const pids = processIds(proc);
  if (pids === null) return null;
  const holders = new Map<string, number>();
  let unreadable = 0;
  for (const pid of pids) {
    const dir = path.join(proc, String(pid), 'fd');
    let fds: string[];
    try {
      fds = fs.readdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') unreadable += 1;
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = fs.readlinkSync(path.join(dir, fd));
      } catch {
        continue;
      }
      if (keep(target) && !holders.has(target)) holders.set(target, pid);
    }
  }
  return { holders, unreadable };
}
