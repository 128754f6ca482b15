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

/**
 * A process and all its descendants by pid, read down from it through
 * `/proc/<pid>/task/<tid>/children` (a machine may run thousands of processes: reading every
 * stat took 2 s on this one with 6,000, where a pane's tree is a few files); the whole tree,
 * filtered, where the kernel has no children files. Null when the process is gone or the proc
 * tree cannot be read.
 */
export function subtreeOf(proc: string, pid: number): Map<number, TreeProcess> | null {
  const root = treeProcess(proc, pid);
  if (root === null) return null;
  const found = new Map([[pid, root]]);
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    const children = childrenOf(proc, parent);
    if (children === null) return parent === pid ? wholeSubtree(proc, pid) : found;
    for (const child of children) {
      const entry = found.has(child) ? null : treeProcess(proc, child);
      if (entry === null || entry.ppid !== parent) continue; // gone, or its pid reused meanwhile
      found.set(child, entry);
      queue.push(child);
    }
  }
  return found;
}

/** The pids a process's threads started and have not lost (`children` of each of its tasks), or null without children files. */
export function childrenOf(proc: string, pid: number): number[] | null {
  const tasks = path.join(proc, String(pid), 'task');
  let tids: string[];
  try {
    tids = fs.readdirSync(tasks);
  } catch {
    return null;
  }
  const pids = new Set<number>();
  let readable = false;
  for (const tid of tids) {
    const text = readText(path.join(tasks, tid, 'children'));
    if (text === null) continue;
    readable = true;
    for (const word of text.split(/\s+/)) if (/^\d+$/.test(word)) pids.add(Number(word));
  }
  return readable ? [...pids].sort((a, b) => a - b) : null;
}

function wholeSubtree(proc: string, pid: number): Map<number, TreeProcess> | null {
  const tree = processTree(proc);
  const root = tree?.get(pid);
  if (!tree || !root) return null;
  return new Map([[pid, root], ...descendantsOf(tree, pid).map((p) => [p.pid, p] as const)]);
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
