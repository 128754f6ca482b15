// One history's world: a temp dir holding HOME, the fleet's dirs and a private tmux server
// (`tmux -S <dir>/tmux.sock`), the built CLI and the fake agents. Nothing reaches the user's
// tmux server or files; only processes of this world are ever signalled, by pid.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeSandboxDirs, sandboxEnv } from '../integration/helpers/sandbox-env.mjs';

export const cliPath = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
export const fixturesBin = fileURLToPath(new URL('../integration/fixtures/bin', import.meta.url));

/** The agent homes a task gets only when its step says so (else each agent's default under HOME). */
const HOME_VARS = ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GROK_HOME', 'GEMINI_CLI_HOME', 'OPENCODE_DB', 'QWEN_HOME', 'KILO_DB', 'PI_CODING_AGENT_DIR', 'COPILOT_HOME'];

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 50 ms until it returns something truthy or `ms` pass; returns it or null. */
export async function until(probe, ms) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) return null;
    await sleep(50);
  }
}

export function processAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return e.code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function children(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** The fake agent running in the process tree of `pid` (the pane's process), or null. */
function agentBelow(pid, depth = 0) {
  const argv = cmdline(pid);
  const script = argv.find((a) => a.startsWith(`${fixturesBin}/`));
  if (script && processAlive(pid)) return { agent: script.slice(fixturesBin.length + 1), pid };
  if (depth > 4) return null;
  for (const child of children(pid)) {
    const found = agentBelow(child, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The worlds not destroyed yet: a run stopped by a signal destroys them first. */
export const liveWorlds = new Set();

export function createWorld() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fleetcom-chaos-')));
  makeSandboxDirs(dir);
  const base = sandboxEnv(dir, fixturesBin);
  for (const key of HOME_VARS) delete base[key];
  const env = { ...base, FAKE_AGENT_TRUTH: join(dir, 'truth.log') };
  const socket = join(dir, 'tmux.sock');
  const commands = [];

  const world = {
    dir,
    env,
    socket,
    home: env.HOME,
    runtime: env.FLEETCOM_RUNTIME_DIR,
    sessions: join(env.FLEETCOM_CONFIG_DIR, 'sessions'),
    truthFile: env.FAKE_AGENT_TRUTH,
    /** Client commands run since the last `takeCommands`. */
    commands,
    takeCommands: () => commands.splice(0),
    /** Window ids a command reported rather than took (a refused adopt). */
    reported: new Set(),
    /** The panes `up` ran in, whose text is the supervisors' logs. */
    supervisorPanes: [],
    /** The last lines of every supervisor's log still on the server. */
    async supervisorLogs(lines = 40) {
      const logs = [];
      for (const pane of world.supervisorPanes) {
        const r = await world.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', pane);
        if (r.code === 0) logs.push(`--- supervisor pane ${pane} ---\n${r.stdout.trimEnd().split('\n').slice(-lines).join('\n')}`);
      }
      return logs.join('\n');
    },
    /** Agent pid → the pane it was seen in, on the current tmux server. */
    panesSeen: new Map(),
    tmux(...args) {
      return new Promise((resolve) => {
        execFile('tmux', ['-S', socket, '-f', '/dev/null', ...args], { env, timeout: 15_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) }));
      });
    },
    /** Runs the built CLI; one that outlives `deadlineMs` is killed and recorded as such. */
    cli(args, { cwd = dir, extraEnv = {}, deadlineMs = 30_000, command = null } = {}) {
      const started = Date.now();
      return new Promise((resolve) => {
        const argv = command ?? [process.execPath, cliPath, ...args];
        const child = spawn(argv[0], argv.slice(1), { cwd, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        let timedOut = false;
        const timer = setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, deadlineMs);
        child.on('close', (code) => {
          clearTimeout(timer);
          const record = { argv: args, ms: Date.now() - started, deadlineMs, timedOut, code, stderr: stderr.slice(0, 400) };
          commands.push(record);
          resolve({ code: code ?? -1, stdout, stderr, ms: record.ms, timedOut });
        });
      });
    },
    agentEnv(slot, kind, ownHome) {
      if (!ownHome) return {};
      const h = join(dir, 'homes', `s${slot}`);
      mkdirSync(h, { recursive: true, mode: 0o700 });
      const vars = {
        claude: ['CLAUDE_CONFIG_DIR', 'claude'],
        codex: ['CODEX_HOME', 'codex'],
        grok: ['GROK_HOME', 'grok'],
        gemini: ['GEMINI_CLI_HOME', 'gemini'],
        opencode: ['OPENCODE_DB', 'opencode/opencode.db'],
        qwen: ['QWEN_HOME', 'qwen'],
        kilo: ['KILO_DB', 'kilo/kilo.db'],
        pi: ['PI_CODING_AGENT_DIR', 'pi'],
        copilot: ['COPILOT_HOME', 'copilot'],
      };
      const [name, sub] = vars[kind];
      return { [name]: join(h, sub) };
    },
    /**
     * copilot asks whether to trust a folder it has not seen and waits for the answer: a user
     * who runs it in a folder has answered that once, in its home's config.json.
     */
    trustFolder(kind, cwd, extraEnv) {
      if (kind !== 'copilot') return;
      const home = extraEnv.COPILOT_HOME ?? join(env.HOME, '.copilot');
      const file = join(home, 'config.json');
      let folders = [];
      try {
        folders = JSON.parse(readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '')).trustedFolders ?? [];
      } catch {}
      mkdirSync(home, { recursive: true });
      writeFileSync(file, `// User settings belong in settings.json.\n${JSON.stringify({ trustedFolders: [...folders, cwd] }, null, 2)}\n`);
    },
    /** `fleetcom up --headless [args]` below a shell (so a SIGSTOP sticks) in a new window or a new session. */
    async up(args = []) {
      const argv = ['/bin/sh', '-c', '"$@"; exit $?', 'sh', process.execPath, cliPath, 'up', '--headless', ...args];
      const has = (await world.tmux('has-session', '-t', 'fleet')).code === 0;
      const made = has
        ? await world.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'fleet:', '-c', dir, '--', ...argv)
        : await world.tmux('new-session', '-d', '-P', '-F', '#{pane_id}', '-s', 'fleet', '-x', '160', '-y', '48', '-c', dir, '--', ...argv);
      const pane = made.stdout.trim();
      if (pane) {
        world.supervisorPanes.push(pane);
        await world.tmux('set-option', '-w', '-t', pane, 'remain-on-exit', 'on');
      }
      const answered = await until(async () => (await world.cli(['ls', '--json'], { deadlineMs: 20_000 })).code === 0, 30_000);
      return { pane, answered: Boolean(answered) };
    },
    /** Live `up` processes of this fleet (their runtime dir is this world's). */
    supervisors() {
      const found = [];
      for (const name of readdirSync('/proc')) {
        const pid = Number(name);
        if (!Number.isInteger(pid)) continue;
        const argv = cmdline(pid);
        // The supervisor is node running `cli.js up` (the shell above it names them too).
        if (argv[1] !== cliPath || argv[2] !== 'up' || !/node/.test(argv[0] ?? '')) continue;
        let environ = '';
        try {
          environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
        } catch {
          continue;
        }
        if (environ.split('\0').includes(`FLEETCOM_RUNTIME_DIR=${world.runtime}`) && processAlive(pid)) found.push({ pid });
      }
      return found;
    },
    /** Live panes of the server that run a fake agent: {windowId, paneId, agent, pid}. */
    async agentPanes() {
      const r = await world.tmux('list-panes', '-a', '-F', '#{window_id} #{pane_id} #{pane_pid} #{pane_dead}');
      if (r.code !== 0) return [];
      const panes = [];
      for (const line of r.stdout.split('\n').filter(Boolean)) {
        const [windowId, paneId, pid, dead] = line.split(' ');
        if (dead === '1') continue;
        const found = agentBelow(Number(pid));
        if (found) panes.push({ windowId, paneId, ...found });
      }
      return panes;
    },
    truthText() {
      try {
        return readFileSync(world.truthFile, 'utf8');
      } catch {
        return '';
      }
    },
    /** Every recipe and snapshot on disk: [{file, kind, text}]. */
    recipeFiles() {
      const files = [];
      for (const [sub, kind] of [['', 'recipe'], ['recovery', 'snapshot']]) {
        const d = join(world.sessions, sub);
        if (!existsSync(d)) continue;
        for (const name of readdirSync(d)) {
          if (!name.endsWith('.json') || name.startsWith('.')) continue;
          try {
            files.push({ file: join(d, name), kind, text: readFileSync(join(d, name), 'utf8') });
          } catch {
            // removed meanwhile (pruned)
          }
        }
      }
      return files;
    },
    /** Kills this world's tmux server and every process it started, then removes the dir. */
    async destroy() {
      const panes = await world.tmux('list-panes', '-a', '-F', '#{pane_pid}');
      const panePids = panes.stdout.split('\n').map(Number).filter((p) => p > 1);
      const pids = new Set(world.supervisors().map((s) => s.pid));
      for (const line of world.truthText().split('\n')) {
        const m = /"pid":(\d+)/.exec(line);
        if (m) pids.add(Number(m[1]));
      }
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {}
      }
      await world.tmux('kill-server');
      // The panes' processes (just listed by this server), and what of the fakes and supervisors
      // the truth and /proc name is still this world's (a pid reused since is left alone).
      for (const pid of [...panePids, ...pids]) {
        if (!processAlive(pid)) continue;
        const argv = cmdline(pid).join(' ');
        if (panePids.includes(pid) || argv.includes(fixturesBin) || argv.includes(cliPath)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {}
        }
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
      liveWorlds.delete(world);
    },
  };
  liveWorlds.add(world);
  return world;
}
