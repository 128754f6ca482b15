// A crafted proc file system for the ownership checks: processes with a state, a start time,
// a terminal, an environment and open files — no real process involved.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface FakeProcess {
  pid: number;
  /** Field 22 of stat (clock ticks after boot). */
  start: string;
  state?: string;
  comm?: string;
  tty?: string;
  env?: Record<string, string>;
  open?: string[];
  /** The fd directory cannot be listed (another user's process). */
  hiddenFds?: boolean;
  /** Its parent (default 1), process group and session (default: its own pid). */
  ppid?: number;
  pgid?: number;
  sid?: number;
  argv?: string[];
  cwd?: string;
  /** The real user id in its status file (default: none written). */
  uid?: number;
  /** The environ file cannot be read (another user's process). */
  hiddenEnv?: boolean;
}

export function statLine(p: FakeProcess): string {
  const ids = [String(p.ppid ?? 1), String(p.pgid ?? p.pid), String(p.sid ?? p.pid)];
  const after = [p.state ?? 'S', ...ids, ...Array.from({ length: 15 }, (_, i) => String(i + 4)), p.start, '0', '0'];
  return `${p.pid} (${p.comm ?? 'claude'}) ${after.join(' ')}\n`;
}

/** `childrenFiles: false`: a kernel without `/proc/<pid>/task/<tid>/children`. */
export function fakeProc(root: string, processes: FakeProcess[], opts: { childrenFiles?: boolean } = {}): string {
  const proc = join(root, 'proc');
  mkdirSync(proc, { recursive: true });
  if (opts.childrenFiles !== false) {
    for (const p of processes) {
      mkdirSync(join(proc, String(p.pid), 'task', String(p.pid)), { recursive: true });
      const children = processes.filter((c) => (c.ppid ?? 1) === p.pid && c.pid !== p.pid).map((c) => c.pid);
      writeFileSync(join(proc, String(p.pid), 'task', String(p.pid), 'children'), children.map((c) => `${c} `).join(''));
    }
  }
  for (const p of processes) {
    const dir = join(proc, String(p.pid));
    mkdirSync(join(dir, 'fd'), { recursive: true });
    writeFileSync(join(dir, 'stat'), statLine(p));
    writeFileSync(join(dir, 'environ'), Object.entries(p.env ?? {}).map(([k, v]) => `${k}=${v}\0`).join(''));
    if (p.tty) symlinkSync(p.tty, join(dir, 'fd', '0'));
    if (p.argv) writeFileSync(join(dir, 'cmdline'), p.argv.map((a) => `${a}\0`).join(''));
    if (p.cwd) symlinkSync(p.cwd, join(dir, 'cwd'));
    if (p.uid !== undefined) writeFileSync(join(dir, 'status'), `Name:\t${p.comm ?? 'claude'}\nUid:\t${p.uid}\t${p.uid}\t${p.uid}\t${p.uid}\n`);
    if (p.hiddenEnv) {
      rmSync(join(dir, 'environ'));
      mkdirSync(join(dir, 'environ')); // reading a directory fails, as EACCES would
    }
    for (const [i, file] of (p.open ?? []).entries()) symlinkSync(file, join(dir, 'fd', String(10 + i)));
    if (p.hiddenFds) {
      rmSync(join(dir, 'fd'), { recursive: true });
      writeFileSync(join(dir, 'fd'), ''); // listing a file fails with ENOTDIR, like EACCES: not ENOENT
    }
  }
  return proc;
}

export function tempRoot(): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'fleetcom-own-'));
  return { dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}
