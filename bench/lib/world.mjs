// A private world for one benchmark: a temp dir holding HOME, the XDG dirs, the agents' homes
// and fleetcom's dirs (the environment of integration/helpers/sandbox-env.mjs, shared with the
// tests), and a private tmux server (`-S <dir>/tmux.sock -f /dev/null`). Nothing touches the
// real HOME or any other tmux server; `close()` kills this server by its socket and removes the
// dir. The same approach as integration/helpers/sandbox.ts, without vitest.
//
//   const w = await createWorld();
//   const fleet = await w.startFleet();            // `fleetcom up --headless` in session `fleet`
//   const r = await w.cli(['ls', '--json']);        // { code, ms, stdout, stderr }
//   await w.close();
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { makeSandboxDirs, sandboxEnv } from '../../integration/helpers/sandbox-env.mjs';
import { sessionMembers } from '../../integration/helpers/session-members.mjs';
import { PROC_ROOT, processTree } from '../../dist/ownership/index.js';

export const cliPath = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));
export const benchBin = fileURLToPath(new URL('../fixtures/bin', import.meta.url));

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a truthy value; throws with the last value after `timeout` ms. */
export async function waitFor(check, what, { timeout = 20_000, every = 10 } = {}) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await check();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
    await sleep(every);
  }
}

/** Runs a process to its end: exit code, wall time from spawn to exit, its output. */
export function runTimed(file, args, { env, cwd, input } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { env, cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const ms = performance.now() - started;
      child.on('close', () => resolve({ code: code ?? 128, signal, ms, stdout, stderr, pid: child.pid }));
    });
  });
}

export async function createWorld() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fleetcom-bench-')));
  const p = (...parts) => join(dir, ...parts);
  makeSandboxDirs(dir);
  mkdirSync(p('work'), { mode: 0o700 });
  const socket = p('tmux.sock');
  const env = { ...sandboxEnv(dir, benchBin), FLEETCOM_LOG_MS: '1' };
  const tmuxArgs = (args) => ['-f', '/dev/null', '-S', socket, ...args];
  /** One tmux client on the private socket; returns stdout (throws on failure). */
  const tmux = (...args) => {
    const r = spawnSync('tmux', tmuxArgs(args), { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`bench: tmux ${args[0]} failed: ${r.stderr}`);
    return r.stdout;
  };
  const tmuxAsync = (...args) => runTimed('tmux', tmuxArgs(args), { env, cwd: dir });
  tmux('new-session', '-d', '-s', 'main', '-x', '160', '-y', '48', '-c', dir, 'sh');

  const world = {
    dir,
    env,
    socket,
    path: p,
    tmux,
    tmuxAsync,
    /** The built CLI, outside tmux, in the world's env (plus `extra`). */
    cli: (args, { extra = {}, cwd = dir, input } = {}) => runTimed(process.execPath, [cliPath, ...args], { env: { ...env, ...extra }, cwd, input }),
    /**
     * `fleetcom up [--headless] [args…]` in the first window of a new tmux session; stderr
     * (the headless log) goes to a file. Resolves once the log says the fleet is up.
     * `nodeArgs` go to node (e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] to profile it).
     */
    async startFleet({ name = 'fleet', headless = true, args = [], extra = {}, nodeArgs = [] } = {}) {
      const log = p(`${name}.log`);
      const words = [...nodeArgs, cliPath, 'up', ...(headless ? ['--headless'] : []), ...args].map((a) => `'${a}'`).join(' ');
      const command = `exec '${process.execPath}' ${words} 2>>'${log}'`;
      const startedAt = Date.now();
      tmux('new-session', '-d', '-s', name, '-x', '160', '-y', '48', '-c', dir,
        ...Object.entries(extra).flatMap(([k, v]) => ['-e', `${k}=${v}`]), 'sh', '-c', command);
      tmux('set-option', '-w', '-t', `${name}:0`, 'remain-on-exit', 'on');
      const text = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
      const upLine = await waitFor(() => text().split('\n').find((l) => l.includes('fleet up in tmux session')), `the fleet '${name}' to start`, { timeout: 60_000 })
        .catch((e) => {
          throw new Error(`${e.message}\n--- log ---\n${text()}`);
        });
      const pid = Number(tmux('list-panes', '-t', `${name}:0`, '-F', '#{pane_pid}').trim());
      return { name, log, pid, startedAt, upAt: logTime(upLine), text };
    },
    /** `fleetcom down` and wait until the supervisor's pane is dead. */
    async stopFleet(fleet) {
      const down = await world.cli(['down']);
      if (down.code !== 0) throw new Error(`bench: fleetcom down failed (${down.code}): ${down.stderr.slice(0, 500)}`);
      await waitFor(() => tmux('list-panes', '-t', `${fleet.name}:0`, '-F', '#{pane_dead}').trim() === '1', 'the supervisor to exit');
      tmux('kill-session', '-t', fleet.name);
    },
    windowCount: (session) => tmux('list-windows', '-t', session, '-F', '#{window_id}').split('\n').filter(Boolean).length,
    /** Kills this world's server and waits for what its panes ran (a supervisor still writes
     *  its state and recovery snapshot for a moment) before the dir is removed. */
    async close() {
      const listed = spawnSync('tmux', tmuxArgs(['list-panes', '-a', '-F', '#{pane_pid}']), { env, encoding: 'utf8' });
      const panes = (listed.stdout ?? '').split('\n').map(Number).filter((pid) => pid > 1);
      spawnSync('tmux', tmuxArgs(['kill-server']), { env });
      await waitFor(() => sessionMembers(processTree(PROC_ROOT), panes).length === 0, 'the panes\' processes to end', { timeout: 10_000 }).catch(() => {
        for (const pid of sessionMembers(processTree(PROC_ROOT), panes)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // ended meanwhile
          }
        }
      });
      // A file written while the tree is removed makes rmdir fail with ENOTEMPTY: retried.
      rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
    },
  };
  return world;
}

/** Epoch ms of a supervisor log line written with FLEETCOM_LOG_MS=1 (`<ms> HH:MM:SS …`). */
export function logTime(line) {
  const ms = Number(line.split(' ', 1)[0]);
  if (!Number.isFinite(ms)) throw new Error(`bench: the log line has no ms timestamp (FLEETCOM_LOG_MS=1): ${line}`);
  return ms;
}

/** A session file (versioned recipe) with `commands` in `cwd`. */
export function recipeText(name, cwd, commands) {
  return `${JSON.stringify({ version: 1, name, dirs: { [cwd]: commands } }, null, 2)}\n`;
}

/** Median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
