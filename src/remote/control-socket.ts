// fleetcom's own OpenSSH control sockets: one per host, in a 0700 dir of its own inside the
// runtime dir, checked like the runtime dir before any socket there is used (a socket there
// is the user's authenticated connection to that host). A socket whose master is gone
// (refused) is removed; one whose master no longer answers (stopped, wedged) has its master
// killed first. Either way the next call starts a fresh master instead of waiting on the old.
import { lstatSync, readdirSync, readFileSync, readlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ensureSafeDir } from '../fs-safety.js';
import { fnv1a64 } from '../paths.js';

/**
 * The socket of `host`: a hash of the host as typed, so that any alias, `user@host` or odd
 * character makes a short, plain name (a Unix socket path has ~107 bytes, and ssh appends 17
 * while it binds).
 */
export function controlPath(controlDir: string, host: string): string {
  return join(controlDir, fnv1a64(host));
}

/** The control dir exists (0700 when made here) and is safe, inside a safe runtime dir. */
export function ensureControlDir(runtimeDir: string, controlDir: string): void {
  ensureSafeDir(runtimeDir);
  ensureSafeDir(controlDir);
}

export function isSocket(path: string): boolean {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return false;
  }
}

/** Removes `path` when it is a socket (never a file or link someone put there). */
export function removeSocket(path: string): void {
  if (!isSocket(path)) return;
  try {
    unlinkSync(path);
  } catch {
    // gone meanwhile: what was wanted
  }
}

/**
 * The pid of the process listening on the Unix socket `path`, found by the socket's inode
 * (/proc/net/unix, then each process's fds): a master rewrites its own argv, so its name proves
 * nothing, but the socket it holds does. Null when none is found (not Linux, or it is gone).
 */
export function socketHolder(path: string): number | null {
  let inode: string | undefined;
  try {
    for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length >= 8 && fields.slice(7).join(' ') === path) inode = fields[6];
    }
  } catch {
    return null;
  }
  if (inode === undefined) return null;
  const wanted = `socket:[${inode}]`;
  const uid = process.getuid?.();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (uid !== undefined && lstatSync(`/proc/${name}`).uid !== uid) continue;
      for (const fd of readdirSync(`/proc/${name}/fd`)) {
        if (readlinkSync(`/proc/${name}/fd/${fd}`) === wanted) return Number(name);
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return null;
}

/** Kills the master holding `path` (SIGKILL: a stopped or wedged one ignores anything less) and removes the socket. */
export function replaceWedgedMaster(path: string): number | null {
  const pid = socketHolder(path);
  if (pid !== null && pid !== process.pid) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  removeSocket(path);
  return pid;
}
