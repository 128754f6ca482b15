// The runtime dir can go while the supervisor lives: systemd removes /run/user/<uid> at the
// user's last logout while tmux (and the supervisor in it) lingers, and tmp cleaners remove
// old dirs under /tmp. The supervisor then ran on, unreachable, and a new `up` could take its
// place. Every RECONCILE_MS the guard checks that the runtime dir, the lock, the control socket
// and the capture namespaces are still this supervisor's, and makes again what is missing with
// the checks of the start: a directory that is now a symlink, someone else's or writable by
// others is refused and said (once), and the fleet runs on; the next check tries again.
import { existsSync, lstatSync } from 'node:fs';
import { restoreNamespace } from '../../capture/namespace.js';
import { errnoCode, errorMessage } from '../../errors.js';
import { safeDirProblem } from '../../fs-safety.js';
import type { RuntimeFiles } from '../../paths.js';
import { readLock } from '../../control/lock-record.js';
import { acquireLock } from './lock.js';
import { RECONCILE_MS } from './wakeups.js';

export interface GuardedRuntime {
  files: RuntimeFiles;
  /** The capture root the namespaces lie directly in. */
  root: string;
  /** The control socket's inode as this supervisor listens on it now (null: not listening). */
  socketInode(): number | null;
  /** Closes the listener and listens on `files.socket` again. */
  listenAgain(): Promise<void>;
  /** Every capture namespace the fleet's tasks write into. */
  namespaces(): string[];
  /** Watches again the namespaces whose directory changed. */
  rewatch(): Promise<void>;
  /** Writes state.json again. */
  persist(): Promise<void>;
  log(line: string): void;
}

export interface Guard {
  /** One check now (the timer's; tests call it). */
  check(): Promise<void>;
  stop(): void;
}

export function guardRuntime(runtime: GuardedRuntime, uid: number | undefined = process.getuid?.()): Guard {
  const problems = new Map<string, string>();
  /** Says a problem with `what` once (not every 2 s), and once that it is over. */
  const report: Report = (what, problem) => {
    if (problem === (problems.get(what) ?? null)) return;
    if (problem === null) problems.delete(what);
    else problems.set(what, problem);
    runtime.log(problem ?? `${what} is usable again`);
  };
  let stopped = false;
  const check = async (): Promise<void> => {
    const { files } = runtime;
    if (stopped || !restoreDir(files.dir, uid, report, runtime.log)) return;
    if (!(await restoreLock(files, report, runtime.log)) || stopped) return;
    await restoreSocket(runtime, report);
    // `down` stops the guard before it removes the namespaces and state.json: none is made again.
    if (stopped) return;
    for (const dir of runtime.namespaces()) {
      try {
        const outcome = restoreNamespace(runtime.root, dir, uid);
        report(dir, null);
        if (outcome === 'restored') runtime.log(`the capture namespace ${dir} was gone: made it again, with its hooks and notifier`);
      } catch (error) {
        report(dir, `${errorMessage(error)}; its tasks' ids are read again once it is usable`);
      }
    }
    // A namespace made again (here, or by someone else meanwhile) is another directory to watch.
    await runtime.rewatch();
    if (!stopped && !existsSync(files.state)) await runtime.persist();
  };
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= check().catch((error: unknown) => runtime.log(`runtime check: ${errorMessage(error)}`)).finally(() => (running = null));
  }, RECONCILE_MS);
  return {
    check,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

type Report = (what: string, problem: string | null) => void;

/** The runtime dir is there (made again, 0700, when it was gone) and safe; false when it is not usable. */
function restoreDir(dir: string, uid: number | undefined, report: Report, log: (line: string) => void): boolean {
  const gone = !existsSync(dir) && !isLink(dir);
  let problem: string | null;
  try {
    problem = safeDirProblem(dir, uid);
  } catch (error) {
    problem = errorMessage(error);
  }
  if (problem !== null) {
    report(dir, `refusing to use the runtime dir ${dir}: it ${problem}; the fleet runs on, but no fleetcom command reaches it until ${dir} is a directory of yours that only you can write, or is gone`);
    return false;
  }
  report(dir, null);
  if (gone) log(`the runtime dir ${dir} was removed: made it again`);
  return true;
}

/** The lock names this supervisor again (taken like at the start); false when another live one holds it. */
async function restoreLock(files: RuntimeFiles, report: Report, log: (line: string) => void): Promise<boolean> {
  const held = readLock(files.lock);
  if (held?.pid === process.pid) return true;
  try {
    await acquireLock(files, process.pid, 0);
  } catch (error) {
    report(files.lock, `${errorMessage(error)}; this supervisor keeps its tasks but does not listen on ${files.socket} while it does`);
    return false;
  }
  report(files.lock, null);
  log(`the lock ${files.lock} ${held === null ? 'was gone' : `named pid ${held.pid}, which no longer holds it`}: took it again`);
  return true;
}

async function restoreSocket(runtime: GuardedRuntime, report: Report): Promise<void> {
  const { socket } = runtime.files;
  let inode: number | null = null;
  try {
    const stat = lstatSync(socket);
    inode = stat.isSocket() ? stat.ino : null;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  if (inode !== null && inode === runtime.socketInode()) return;
  try {
    await runtime.listenAgain();
    report(socket, null);
    runtime.log(`the control socket ${socket} was gone: listening on it again`);
  } catch (error) {
    report(socket, `cannot listen on ${socket} again: ${errorMessage(error)}`);
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
