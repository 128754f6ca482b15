// Seeing a task's process end without tmux. tmux 3.3a misses some pane deaths (its SIGCHLD is
// lost: the process stays a zombie, pane-died never fires, and only the 2 s reconciliation
// noticed). Two ways, neither a tmux client nor a new process:
// - a quiet pane's terminal is watched (tty-watch.ts): tmux closing it is an event, and a
//   fleet of idle tasks costs no wakeup at all (polling 50 of them every 100 ms was most of an
//   idle supervisor's CPU);
// - a pane that writes a lot (each write is an event there), or has no terminal to watch, is
//   polled every 100 ms instead, for a second at a time: `/proc/<pid>/stat` read
//   through a descriptor kept open. `kill(pid, 0)` cannot tell: it succeeds on a zombie,
//   which is exactly the missed case. The kept descriptor also cannot be fooled by pid reuse:
//   once the process is reaped, reading it fails with ESRCH whoever holds the number now.
import { closeSync, openSync, readSync } from 'node:fs';
import { fieldsOf } from '../../ownership/proc.js';
import { watchTty } from './tty-watch.js';

export const WATCH_EVERY_MS = 100;
/** An ended process still named this long after it was told is told again (its pane may not be dead yet). */
export const RETELL_AFTER_MS = 500;

/**
 * Writes a watched terminal may see within a second before its pane is polled instead (each
 * is a wakeup): a few keep it watched, so the exit hint an agent prints as it exits does not
 * cost the exit its event.
 */
export const WRITES_BEFORE_POLLING = 8;
/** A pane polled for its writes is polled this long, then its terminal is watched again. */
export const POLL_AFTER_OUTPUT_MS = 1_000;

/**
 * How a watched process ended: a zombie's wait status, gone (someone reaped it), or its
 * terminal closed while the process is not seen ended (it may have left it and live on).
 */
export type Ending = { kind: 'zombie'; exitStatus: number | null } | { kind: 'gone' } | { kind: 'closed' };

/** A task's pane process, and its terminal when known. */
export interface WatchTarget {
  pid: number;
  tty: string | null;
}

/** The state letter and the exit status of a `/proc/<pid>/stat` line, or null if unreadable. */
export function parseStat(text: string): { state: string; exitStatus: number | null } | null {
  // After the command name: state (field 3) … exit_code (field 52, Linux ≥ 3.5).
  const fields = fieldsOf(text);
  if (fields === null) return null;
  const state = fields[0];
  if (state === undefined || !/^[A-Za-z]$/.test(state)) return null;
  const code = Number(fields[49]);
  // A wait status: a normal exit keeps its code in bits 8-15; a signal death (low 7 bits set)
  // has no exit status, as tmux reports it.
  const exitStatus = Number.isInteger(code) && fields[49] !== undefined && (code & 0x7f) === 0 ? (code >> 8) & 0xff : null;
  return { state, exitStatus };
}

interface Entry {
  pid: number;
  tty: string | null;
  fd: number | null;
  /** Set while the terminal is watched (the pane is quiet). */
  watch: { close(): void } | null;
  /** 0: not polled (watched); otherwise polled until then, Infinity for good (nothing to watch). */
  pollUntil: number;
  /** Writes seen by the watch in the second that began at `writesSince`. */
  writes: number;
  writesSince: number;
}

export interface ProcessWatch {
  /** Checks every process at once (a pane-died hook fired): the number of endings told. */
  checkNow(): number;
  /** Reads the targets again (after a reconciliation or a change of the fleet). */
  refresh(): void;
  stop(): void;
}

/**
 * Watches the processes `targets()` names (key → pid and tty; a key whose pid changed starts
 * over, keys left out are dropped) and calls `onEnded(key, ending)` once for each that has
 * ended. A pid that cannot be opened (already gone) is reported as gone. `targets()` is read
 * on refresh(), checkNow() and each poll.
 */
export function watchProcesses(
  targets: () => ReadonlyMap<number, WatchTarget>,
  onEnded: (key: number, ending: Ending) => void,
  { everyMs = WATCH_EVERY_MS, watchTerminal = watchTty }: { everyMs?: number; watchTerminal?: typeof watchTty } = {},
): ProcessWatch {
  const entries = new Map<number, Entry>();
  const buffer = Buffer.alloc(1024);
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const forget = (key: number): void => {
    const entry = entries.get(key);
    entry?.watch?.close();
    if (entry?.fd != null) closeSync(entry.fd);
    entries.delete(key);
  };

  /** Ended processes told, with when: not watched again until RETELL_AFTER_MS has passed. */
  const told = new Map<number, { pid: number; at: number }>();
  const tell = (key: number, entry: Entry, ending: Ending): void => {
    forget(key);
    told.set(key, { pid: entry.pid, at: Date.now() });
    startPolling(); // to tell it again if it is still named a while later
    onEnded(key, ending);
  };

  const startPolling = (): void => {
    if (timer !== null || stopped) return;
    timer = setInterval(tick, everyMs);
    timer.unref();
  };
  const poll = (key: number, entry: Entry, until: number): void => {
    entry.watch?.close();
    entry.watch = null;
    entry.pollUntil = until;
    startPolling();
  };
  const arm = (key: number, entry: Entry): void => {
    entry.pollUntil = 0;
    entry.watch = entry.tty === null ? null : watchTerminal(entry.tty, {
      written: () => {
        const now = Date.now();
        if (now - entry.writesSince >= 1_000) Object.assign(entry, { writes: 0, writesSince: now });
        entry.writes += 1;
        if (entry.writes >= WRITES_BEFORE_POLLING) poll(key, entry, now + POLL_AFTER_OUTPUT_MS);
      },
      closed: () => {
        if (entries.get(key) === entry) tell(key, entry, endingOf(entry, buffer) ?? { kind: 'closed' });
      },
    });
    if (entry.watch === null) poll(key, entry, Infinity);
  };

  const sync = (now: number): void => {
    const wanted = targets();
    for (const [key, entry] of entries) if (entry.pid !== wanted.get(key)?.pid) forget(key);
    for (const [key, { pid, at }] of told) if (pid !== wanted.get(key)?.pid || now - at >= RETELL_AFTER_MS) told.delete(key);
    for (const [key, { pid, tty }] of wanted) {
      if (entries.has(key) || told.has(key) || !Number.isInteger(pid) || pid <= 1) continue;
      const entry: Entry = { pid, tty, fd: openStat(pid), watch: null, pollUntil: 0, writes: 0, writesSince: now };
      entries.set(key, entry);
      if (!check(key, entry)) arm(key, entry); // it may have ended already
    }
  };

  function check(key: number, entry: Entry): boolean {
    const ending = endingOf(entry, buffer);
    if (ending !== null) tell(key, entry, ending);
    return ending !== null;
  }

  function tick(): void {
    const now = Date.now();
    sync(now);
    let polled = 0;
    for (const [key, entry] of entries) {
      if (entry.pollUntil === 0 || check(key, entry)) continue;
      if (entry.pollUntil <= now) arm(key, entry);
      else polled += 1;
    }
    if (polled === 0 && told.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  }

  sync(Date.now());
  return {
    checkNow() {
      sync(Date.now());
      let endings = 0;
      for (const [key, entry] of entries) if (check(key, entry)) endings += 1;
      return endings;
    },
    refresh() {
      sync(Date.now());
    },
    stop() {
      stopped = true;
      if (timer !== null) clearInterval(timer);
      timer = null;
      for (const key of [...entries.keys()]) forget(key);
    },
  };
}

/** A watch that sees nothing: for a system without Linux's proc tree (macOS). */
export const BLIND_WATCH: ProcessWatch = { checkNow: () => 0, refresh: () => undefined, stop: () => undefined };

/**
 * Whether this system has the proc tree the watch reads. Without it every `/proc/<pid>/stat`
 * fails to open, which the watch would take for "gone" for every task, read each pane again
 * and again; exits are then heard by the pane-died hook and the reconciliation alone.
 */
export function canWatchProcesses(proc = '/proc'): boolean {
  try {
    closeSync(openSync(`${proc}/self/stat`, 'r'));
    return true;
  } catch {
    return false;
  }
}

function openStat(pid: number): number | null {
  try {
    return openSync(`/proc/${pid}/stat`, 'r');
  } catch {
    return null;
  }
}

/** null while the process runs (or its stat cannot be read for another reason). */
function endingOf(entry: { fd: number | null }, buffer: Buffer): Ending | null {
  if (entry.fd === null) return { kind: 'gone' };
  let length;
  try {
    length = readSync(entry.fd, buffer, 0, buffer.length, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? { kind: 'gone' } : null;
  }
  // Nearly every read is of a running process: its state byte says so; only an ended one's
  // line is decoded and split (for its exit status).
  const close = length > 0 ? buffer.lastIndexOf(CLOSE_PAREN, length - 1) : -1;
  const state = close === -1 || close + 2 >= length ? undefined : buffer[close + 2];
  if (state !== ZOMBIE && state !== DEAD) return null;
  const stat = parseStat(buffer.toString('latin1', 0, length));
  if (stat === null) return null;
  // X (dead) is only seen for an instant during reaping; both mean the program has ended.
  return stat.state === 'Z' || stat.state === 'X' ? { kind: 'zombie', exitStatus: stat.exitStatus } : null;
}

const CLOSE_PAREN = 0x29;
const ZOMBIE = 0x5a;
const DEAD = 0x58;
