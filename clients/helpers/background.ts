// claude's background machinery, seen and stopped from outside. Parking a conversation or
// `claude --bg` starts a per-user daemon and workers that outlive the pane and the tmux server
// (they leave its session), with their sockets under /tmp/cc-daemon-<uid>/<hash>/. A world
// stops every such process it started — found by the world's own HOME in /proc/<pid>/environ,
// never by name — and removes the socket folders those processes named.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ClientWorld } from './world.js';

const run = promisify(execFile);
const DAEMON_DIR = /\/tmp\/cc-daemon-\d+\/[0-9a-f]+/;

export interface BackgroundProcess {
  pid: number;
  argv: string[];
}

/** Every process whose environment has this HOME and whose program is claude's. */
export function claudeProcessesOf(home: string): BackgroundProcess[] {
  const found: BackgroundProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter((a) => a !== '');
      if (argv.some((a) => /(^|\/)claude(\.exe)?$/.test(a))) found.push({ pid: Number(name), argv });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** `claude <args>` as the world's user, in its project; stdout. */
export async function claudeCli(w: ClientWorld, ...args: string[]): Promise<string> {
  const r = await run(join(w.client.binDir, 'claude'), args, { env: w.sb.env, cwd: w.project, timeout: 60_000 });
  return r.stdout;
}

/** Background sessions `claude agents --json --all` lists (the interactive ones left out). */
export async function backgroundAgents(w: ClientWorld): Promise<Array<{ id: string; sessionId: string; pid: number }>> {
  const list = JSON.parse(await claudeCli(w, 'agents', '--json', '--all')) as Array<Record<string, unknown>>;
  return list
    .filter((a) => typeof a.id === 'string' && typeof a.sessionId === 'string')
    .map((a) => ({ id: String(a.id), sessionId: String(a.sessionId), pid: Number(a.pid) }));
}

/** Stops the world's background sessions (`claude stop`), then kills what is left of claude's machinery. */
export async function stopBackground(w: ClientWorld): Promise<void> {
  const dirsOf = (ps: BackgroundProcess[]) => ps.flatMap((p) => p.argv.map((a) => DAEMON_DIR.exec(a)?.[0]).filter((d): d is string => d !== undefined));
  // The daemon's folders, named by its processes before `claude stop` lets the daemon exit.
  const dirs = new Set(dirsOf(claudeProcessesOf(w.sb.home)));
  const agents = await backgroundAgents(w).catch(() => []);
  for (const agent of agents) await claudeCli(w, 'stop', agent.id).catch(() => '');
  const left = claudeProcessesOf(w.sb.home);
  for (const dir of dirsOf(left)) dirs.add(dir);
  for (const p of left) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // exited by itself
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

/**
 * codex run plain starts an app-server daemon (setsid) that outlives its TUI and the tmux
 * server: the world kills every codex process whose environment has its HOME, by pid.
 */
export function killCodexDaemons(home: string): void {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`HOME=${home}`)) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv.some((a) => /(^|\/)codex$/.test(a))) process.kill(Number(name), 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
