// What a real client was actually started with, read from /proc: its argv and environment.
// Used to see the id fleetcom pinned (`--session-id`) and the capture file it was given,
// without trusting fleetcom's own report of them.
import { readdir, readFile } from 'node:fs/promises';

export interface ProcInfo {
  pid: number;
  argv: string[];
  env: Record<string, string>;
}

/** Every process under `root` (itself included), by walking /proc's parent links. */
export async function descendants(root: number): Promise<ProcInfo[]> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => null);
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses: read after the last `)`.
    const ppid = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN;
    if (Number.isInteger(ppid)) parents.set(Number(name), ppid);
  }
  const wanted = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!wanted.has(pid) && wanted.has(ppid)) {
        wanted.add(pid);
        grew = true;
      }
    }
  }
  const infos: ProcInfo[] = [];
  for (const pid of wanted) {
    const argv = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
    const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => null);
    if (argv === null || environ === null) continue;
    const env: Record<string, string> = {};
    for (const pair of environ.split('\0')) {
      const eq = pair.indexOf('=');
      if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    infos.push({ pid, argv: argv.split('\0').filter((a, i, all) => a !== '' || i < all.length - 1), env });
  }
  return infos;
}

/** The value after `flag` in an argv, if present. */
export function flagValue(argv: readonly string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i >= 0 ? argv[i + 1] : undefined;
}
