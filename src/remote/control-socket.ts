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
  const uid = process.getuid?.();
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && ownedBy(`/proc/${name}`, uid));
  // A socket is listed in the /proc/net/unix of its own network namespace: look in each
  // namespace this user's processes are in (one, but for an ssh run through nsenter).
  const seen = new Set<string>();
  for (const pid of ['self', ...pids]) {
    let netns: string;
    try {
      netns = readlinkSync(`/proc/${pid}/ns/net`);
    } catch {
      continue;
    }
    if (seen.has(netns)) continue;
    const table = unixTable(`/proc/${pid}/net/unix`);
    // A process on its way out (the check's own ssh, just killed) may show its namespace
    // and no table: the namespace is looked at again through another process.
    if (table === null) continue;
    seen.add(netns);
    const inode = inodeOf(path, table);
    if (inode === null) continue;
    const holder = holderOf(`socket:[${inode}]`, pids);
    if (holder !== null) return holder;
  }
  return null;
}

function unixTable(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function ownedBy(path: string, uid: number | undefined): boolean {
  try {
    return uid === undefined || lstatSync(path).uid === uid;
  } catch {
    return false;
  }
}

/** Flags of a listening socket in /proc/net/unix (__SO_ACCEPTCON): a connection waiting in its queue is listed under the same path. */
const LISTENING = '00010000';

function inodeOf(path: string, table: string): string | null {
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length >= 8 && fields[3] === LISTENING && boundAs(fields.slice(7).join(' '), path)) return fields[6] ?? null;
  }
  return null;
}

/** ssh binds its listener to `<path>.<16 random characters>` and links it to `<path>`: the table keeps the bound name. */
function boundAs(listed: string, path: string): boolean {
  return listed === path || (listed.startsWith(`${path}.`) && /^[A-Za-z0-9]{16}$/.test(listed.slice(path.length + 1)));
}

function holderOf(link: string, pids: readonly string[]): number | null {
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === link) return Number(pid);
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
