// One private world per test: a temp dir holding HOME, the XDG dirs, the agents' homes, the
// fleetcom dirs and a private tmux socket. Nothing here touches the real HOME or the default
// tmux server: every tmux call names the socket (`-S <dir>/tmux.sock -f /dev/null`), and
// TMUX_TMPDIR points into the sandbox too, so even a call that forgot `-S` stays inside.
//
//   it('…', async () => {
//     const sb = await useSandbox();          // cleaned up by onTestFinished
//     const session = await sb.startServer(); // '$0', a detached session with a plain sh window
//     await sb.tmux('send-keys', '-t', pane, 'hello', 'Enter');
//   });
//
// createSandbox() is the same without the registration (for beforeEach/afterEach).
// `env` is a complete environment (nothing inherited; built by sandbox-env.mjs, which the
// bench's world shares): PATH starts with integration/fixtures/bin (the fake claude, codex,
// grok), SHELL=/bin/sh, LANG=C.UTF-8, no TMUX or TMUX_PANE, FAKE_AGENT_LOG=<dir>/agents.log
// (read it with agentStarts()).
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import { createTmux, type TmuxOps } from '../../src/tmux/operations.js';
import { TmuxRunner } from '../../src/tmux/runner.js';
import { makeSandboxDirs, sandboxEnv } from './sandbox-env.mjs';
import { sessionMembers } from './session-members.mjs';
import { PROC_ROOT, processTree } from '../../src/ownership/index.js';
import { waitFor } from './wait-for.js';

export const fixturesBin = fileURLToPath(new URL('../fixtures/bin', import.meta.url));

export interface AgentStart {
  agent: 'claude' | 'codex' | 'grok';
  argv: string[];
  cwd: string;
  pid: number;
  env: { FLEETCOM_CAPTURE_FILE: string | null; FLEETCOM_NOTIFY_CHAIN: string | null };
}

export interface Sandbox {
  /** The temp dir (real path); everything else lives inside it. */
  dir: string;
  home: string;
  /** Private tmux socket, `<dir>/tmux.sock`. */
  socket: string;
  /** A complete environment for the CLI, tmux and the tasks. */
  env: Record<string, string>;
  /** Runner on the private socket with `-f /dev/null`, env = this.env. */
  runner: TmuxRunner;
  /** Typed operations on that runner. */
  ops: TmuxOps;
  /** Raw tmux on the private socket: `await sb.tmux('list-windows', '-a')` → stdout. */
  tmux(...args: string[]): Promise<string>;
  /** Starts the server: a detached session `main` (160x48) with a plain `sh`; returns its id. */
  startServer(opts?: { name?: string }): Promise<string>;
  /** Makes a directory inside the sandbox (recursive) and returns its path. */
  mkdir(...parts: string[]): Promise<string>;
  /** The JSON lines the fake agents appended to $FAKE_AGENT_LOG, in order. */
  agentStarts(): Promise<AgentStart[]>;
  /**
   * Kills this sandbox's tmux server by its socket and waits until the server process has
   * ended: a `new-session` sent while it still exits reaches the dying server and fails with
   * "server exited unexpectedly" (seen in CI under load).
   */
  killServer(): Promise<void>;
  /** Kills this sandbox's tmux server (by socket) and removes the dir. Safe to call twice. */
  cleanup(): Promise<void>;
}

export async function createSandbox(): Promise<Sandbox> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'fleetcom-it-')));
  const p = (...parts: string[]) => join(dir, ...parts);
  makeSandboxDirs(dir);
  const home = p('home');
  const socket = p('tmux.sock');
  const env: Record<string, string> = { ...sandboxEnv(dir, fixturesBin), FAKE_AGENT_LOG: p('agents.log') };
  const runner = new TmuxRunner({ socketPath: socket, configFile: '/dev/null', env });
  const ops = createTmux(runner);
  let cleaned = false;
  const sandbox: Sandbox = {
    dir,
    home,
    socket,
    env,
    runner,
    ops,
    tmux: (...args: string[]) => runner.run(args),
    async startServer(opts = {}) {
      return ops.newSession({ name: opts.name ?? 'main', cwd: dir, argv: ['sh'], width: 160, height: 48 });
    },
    async killServer() {
      const pid = Number((await runner.run(['display-message', '-p', '#{pid}']).catch(() => '')).trim());
      await runner.run(['kill-server']);
      if (pid > 1) await waitFor(() => !processAlive(pid), { what: `the tmux server (pid ${pid}) to end`, timeout: 30_000 });
    },
    async mkdir(...parts: string[]) {
      const made = p(...parts);
      await mkdir(made, { recursive: true });
      return made;
    },
    async agentStarts() {
      let text = '';
      try {
        text = await readFile(p('agents.log'), 'utf8');
      } catch {
        return [];
      }
      return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as AgentStart);
    },
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      // The pane processes (and the fakes they started) get SIGHUP from kill-server; wait until
      // they are gone so none writes into the dir while it is being removed. tmux makes each
      // pane's process a session leader, so its session is also every process it started: a
      // real agent's helpers still write their last files (and run its end hooks) after it.
      const panePids = (await runner.run(['list-panes', '-a', '-F', '#{pane_pid}']).catch(() => '')).split('\n').map(Number).filter((pid) => pid > 1);
      await ops.killServer();
      const agentPids = (await sandbox.agentStarts()).map((a) => a.pid);
      // A pane's process leads its own session, so it is among the members while it runs.
      const left = () => [...new Set([...agentPids.filter((pid) => pid > 1 && processAlive(pid)), ...sessionMembers(processTree(PROC_ROOT), panePids)])];
      await waitFor(() => left().length === 0, { what: 'the sandbox processes to end', timeout: 10_000 }).catch(() => {
        for (const pid of left()) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // ended meanwhile
          }
        }
      });
      // A supervisor that got SIGHUP from the dying server may still write its last files
      // (state, recovery snapshot) for a moment: retry instead of failing on ENOTEMPTY.
      await rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    },
  };
  return sandbox;
}

/** The process exists and is not a zombie (one that has ended but is not reaped yet). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** createSandbox() + cleanup when the current test finishes (pass or fail). */
export async function useSandbox(): Promise<Sandbox> {
  const sb = await createSandbox();
  onTestFinished(() => sb.cleanup());
  return sb;
}
