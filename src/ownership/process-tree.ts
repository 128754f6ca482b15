import * as fs from 'node:fs';
import * as path from 'node:path';
import { environOf, fieldsOf, processIds } from './proc.js';

// The process tree of a proc file system, read in one pass of `/proc/*/stat`, and what a
// hand-started agent is made of: its argv, environment, directory, owner and open files. Like
// proc.ts, nothing here throws: a process that vanished or is another user's reads as absent
// or unreadable.

/** One process of the tree, from its stat line. */
export interface TreeProcess {
  pid: number;
  ppid: number;
  /** Its process group and session (a daemon that called setsid has a session of its own). */
  pgid: number;
  sid: number;
  /** The state letter (`S`, `R`, `T`, `Z`, …). */
  state: string;
  /** Field 22: start time in clock ticks after boot (with the pid it names the process for good). */
  start: string;
}

/** Every process by pid, or null when the proc tree cannot be listed. */
export function processTree(proc: string): Map<number, TreeProcess> | null {
  const pids = processIds(proc);
  if (pids === null) return null;
  const tree = new Map<number, TreeProcess>();
  for (const pid of pids) {
    const entry = treeProcess(proc, pid);
    if (entry !== null) tree.set(pid, entry);
  }
  return tree;
}

export function treeProcess(proc: string, pid: number): TreeProcess | null {
  const text = readText(path.join(proc, String(pid), 'stat'));
  const fields = text === null ? null : fieldsOf(text);
  if (fields === null) return null;
  const [state, ppid, pgid, sid] = [fields[0], Number(fields[1]), Number(fields[2]), Number(fields[3])];
  const start = fields[19];
  if (state === undefined || start === undefined || !/^\d+$/.test(start) || ![ppid, pgid, sid].every(Number.isInteger)) return null;
  return { pid, ppid, pgid, sid, state, start };
}

/** The processes under `pid` (not itself), parents before their children. */
export function descendantsOf(tree: ReadonlyMap<number, TreeProcess>, pid: number): TreeProcess[] {
  const children = new Map<number, TreeProcess[]>();
  for (const entry of tree.values()) {
    if (entry.pid === entry.ppid) continue;
    const list = children.get(entry.ppid) ?? [];
    list.push(entry);
    children.set(entry.ppid, list);
  }
  const found: TreeProcess[] = [];
  const queue = [...(children.get(pid) ?? [])];
  const seen = new Set([pid]);
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next.pid)) continue;
    seen.add(next.pid);
    found.push(next);
    queue.push(...(children.get(next.pid) ?? []).sort((a, b) => a.pid - b.pid));
  }
  return found;
}

/** A process's children that have not ended (a zombie is an ended child its parent has not reaped yet). */
export function liveChildrenOf(tree: ReadonlyMap<number, TreeProcess>, pid: number): TreeProcess[] {
  return [...tree.values()].filter((p) => p.ppid === pid && p.pid !== pid && p.state !== 'Z' && p.state !== 'X').sort((a, b) => a.pid - b.pid);
}

/** What is known of one process beyond its stat line; each part null when it cannot be read. */
export interface ProcessFacts {
  pid: number;
  /** The real user id (`Uid:` of its status file). */
  uid: number | null;
  argv: string[] | null;
  env: Record<string, string> | null;
  /** Its working directory (`/proc/<pid>/cwd`). */
  cwd: string | null;
}

export function processFacts(proc: string, pid: number): ProcessFacts {
  const dir = path.join(proc, String(pid));
  const cmdline = readText(path.join(dir, 'cmdline'));
  return { pid, uid: uidOf(readText(path.join(dir, 'status'))), argv: cmdline === null ? null : argvOf(cmdline), env: environOf(proc, pid), cwd: readLink(path.join(dir, 'cwd')) };
}

/** The words of a cmdline: NUL-separated, the last one NUL-terminated. */
export function argvOf(cmdline: string): string[] {
  const words = cmdline.split('\0');
  if (words.at(-1) === '') words.pop();
  return words;
}

function uidOf(status: string | null): number | null {
  const match = status === null ? null : /^Uid:\s+(\d+)/m.exec(status);
  return match ? Number(match[1]) : null;
}

/** The files each of `pids` holds open (`/proc/<pid>/fd`), or why they cannot be listed. */
export function openFilesOf(proc: string, pid: number): { files: string[] } | { unreadable: string } {
  const dir = path.join(proc, String(pid), 'fd');
  let fds: string[];
  try {
    fds = fs.readdirSync(dir);
  } catch (error) {
    return { unreadable: `${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  const files: string[] = [];
  for (const fd of fds) {
    const target = readLink(path.join(dir, fd));
    if (target !== null && target.startsWith('/')) files.push(target);
  }
  return { files };
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function readLink(file: string): string | null {
  try {
    return fs.readlinkSync(file);
  } catch {
    return null;
  }
}
