// Seeing a task's process end without tmux. tmux 3.3a misses about one pane death in twelve
// (its SIGCHLD is lost: the process stays a zombie, pane-died never fires, and only the 2 s
// reconciliation noticed). Every 100 ms this reads `/proc/<pid>/stat` of each running task's
// pane process through a descriptor kept open: one pread per task, no tmux client, no new
// process. `kill(pid, 0)` cannot tell: it succeeds on a zombie, which is exactly that case.
// A kept descriptor also cannot be fooled by pid reuse: once the process is reaped, reading
// it fails with ESRCH whoever holds the number now.
import { closeSync, openSync, readSync } from 'node:fs';
import { fieldsOf } from '../ownership/proc.js';

export const WATCH_EVERY_MS = 100;
/** An ended process still named this long after it was told is told again (its pane may not be dead yet). */
export const RETELL_AFTER_MS = 500;

/** How a watched process ended: a zombie's wait status, or gone (someone reaped it). */
export type Ending = { kind: 'zombie'; exitStatus: number | null } | { kind: 'gone' };

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

interface Watched {
  pid: number;
  fd: number | null;
}

export interface ProcessWatch {
  /** Checks at once (a pane-died hook fired): the number of endings told. */
  checkNow(): number;
  stop(): void;
}

/**
 * Every `everyMs`, watches the processes `pids()` names (key → pid; a key whose pid changed
 * starts over, keys left out are dropped) and calls `onEnded(key, ending)` once for each that
 * has ended. A pid that cannot be opened (already gone) is reported as gone.
 */
export function watchProcesses(
  pids: () => ReadonlyMap<number, number>,
  onEnded: (key: number, ending: Ending) => void,
  everyMs = WATCH_EVERY_MS,
): ProcessWatch {
  const watched = new Map<number, Watched>();
  const buffer = Buffer.alloc(1024);

  const forget = (key: number): void => {
    const entry = watched.get(key);
    if (entry?.fd != null) closeSync(entry.fd);
    watched.delete(key);
  };

  /** Ended processes told, with when: not watched again until RETELL_AFTER_MS has passed. */
  const told = new Map<number, { pid: number; at: number }>();
  const sync = (wanted: ReadonlyMap<number, number>, now: number): void => {
    for (const key of [...watched.keys()]) if (watched.get(key)?.pid !== wanted.get(key)) forget(key);
    for (const [key, { pid, at }] of told) if (pid !== wanted.get(key) || now - at >= RETELL_AFTER_MS) told.delete(key);
    for (const [key, pid] of wanted) {
      if (watched.has(key) || told.has(key) || !Number.isInteger(pid) || pid <= 1) continue;
      watched.set(key, { pid, fd: openStat(pid) });
    }
  };

  const check = (): number => {
    const now = Date.now();
    sync(pids(), now);
    let endings = 0;
    for (const [key, entry] of watched) {
      const ending = endingOf(entry, buffer);
      if (ending === null) continue;
      forget(key);
      told.set(key, { pid: entry.pid, at: now });
      endings += 1;
      onEnded(key, ending);
    }
    return endings;
  };
  const timer = setInterval(check, everyMs);
  timer.unref();

  return {
    checkNow: check,
    stop() {
      clearInterval(timer);
      for (const key of [...watched.keys()]) forget(key);
    },
  };
}

function openStat(pid: number): number | null {
  try {
    return openSync(`/proc/${pid}/stat`, 'r');
  } catch {
    return null;
  }
}

/** null while the process runs (or its stat cannot be read for another reason). */
function endingOf(entry: Watched, buffer: Buffer): Ending | null {
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
