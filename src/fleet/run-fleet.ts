// `fleetcom up` inside tmux: the supervisor's life from lock to teardown. Everything here is
// wiring of named side effects; decisions live in Supervisor and the pure modules.
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { captureRoot } from '../capture/root.js';
import { capturePath, installNamespace, removeNamespace } from '../capture/namespace.js';
import { watchCaptures, type CaptureWatcher } from '../capture/watcher.js';
import { listenControl } from '../control/server.js';
import type { RecipeTask } from '../control/protocol.js';
import { startDashboard, type Dashboard } from '../dashboard/terminal.js';
import { callerEnv, type Deps } from '../deps.js';
import { FleetError } from '../errors.js';
import type { RuntimeFiles } from '../paths.js';
import { ensureSafeDir } from '../safe-dir.js';
import { sessionDir } from '../sessions/store.js';
import { bindKey, listKey, setServerOption, setSessionOption, showServerOption, unbindKey, unsetServerOption } from '../tmux/options.js';
import { TmuxRunner, type TmuxRun } from '../tmux/runner.js';
import { displayMessage } from '../tmux/sessions.js';
import { assertVersion } from '../tmux/version.js';
import { adoptTasks } from './adopt.js';
import { hearDeaths } from './death-channel.js';
import { acquireLock, releaseLock } from './lock.js';
import { fleetRecovery } from './recovery-writer.js';
import { cliPaths, fleetRuntime } from './runtime-files.js';
import { readState } from './state-file.js';
import { Supervisor } from './supervisor.js';
import { evidenceOf } from './task.js';
import { fleetTmux } from './tmux-adapter.js';
import { isFleetcomBinding, paneDiedChannel, paneDiedHook, previousBindingOption, rerunBinding, type CliPaths } from './tmux-commands.js';

export interface FleetOptions {
  headless: boolean;
  rerunKey: string;
  /** Tasks of a recipe to load at start (already resolved by the CLI). */
  load: RecipeTask[];
}

const RECONCILE_MS = 2_000;
const HISTORY_LIMIT = '10000';

export { cliPaths, fleetRuntime };

export async function runFleet(deps: Deps, opts: FleetOptions): Promise<number> {
  const env = callerEnv(deps);
  const tmux = new TmuxRunner({ env });
  await assertVersion(tmux);
  const pane = env.TMUX_PANE;
  if (!env.TMUX || !pane) throw new FleetError('fleetcom up runs its supervisor inside tmux');
  const files = fleetRuntime(env);
  ensureSafeDir(files.dir);
  await acquireLock(files, process.pid);
  const [sessionId = '', sessionName = ''] = (await displayMessage(tmux, pane, '#{session_id}\t#{session_name}')).split('\t');
  let dashboard: Dashboard | null = null;
  // FLEETCOM_LOG_MS=1 puts epoch milliseconds before the clock time (npm run bench reads them).
  const logMs = env.FLEETCOM_LOG_MS === '1';
  const log = (line: string) => {
    const now = deps.now();
    const stamped = `${logMs ? `${now} ` : ''}${new Date(now).toISOString().slice(11, 19)} ${line}`;
    if (dashboard) dashboard.log(stamped);
    else deps.stderr.write(`${stamped}\n`);
  };
  const cli = cliPaths();
  const home = env.HOME || homedir();
  const root = captureRoot({ env, sessionDir: sessionDir(env, home) });
  const watchers = new Map<string, CaptureWatcher>();

  // This incarnation's recovery snapshot (contract 7); the supervisor builds the recipe.
  const recovery = fleetRecovery({ env, startedAt: new Date(deps.now()), pid: process.pid, tasks: () => supervisor.recipe(), log });
  const supervisor: Supervisor = new Supervisor({
    tmux: fleetTmux(tmux, sessionId),
    statePath: files.state,
    controlSocket: files.socket,
    paneDiedHook: paneDiedHook(files.socket),
    tmuxSession: { id: sessionId, name: sessionName },
    installNamespace: () => installNamespace(root, { pid: process.pid }).dir,
    capturePath,
    now: deps.now,
    newId: randomUUID,
    log,
    onChange: () => {
      void watchNamespaces();
      dropIdleNamespaces();
      dashboard?.changed();
      recovery.changed();
    },
  });

  const watchNamespaces = async () => {
    for (const dir of [supervisor.namespace, ...supervisor.adoptedNamespaces]) {
      if (dir === null || watchers.has(dir) || !existsSync(dir)) continue;
      watchers.set(dir, await watchCaptures({
        dir,
        lookup: {
          current: (taskId) => {
            const task = supervisor.tasks.get(taskId);
            const evidence = task && evidenceOf(task);
            return task && evidence ? { run: task.run, evidence } : null;
          },
        },
        onId: (e) => supervisor.captured(e.taskId, e.run, e.id),
        onError: (error) => log(`capture watcher: ${(error as Error).message}`),
      }));
    }
  };
  // A dead supervisor's namespace goes once no adopted task writes into it any more.
  const dropIdleNamespaces = () => {
    for (const dir of supervisor.adoptedNamespaces) {
      const used = [...supervisor.tasks.values()].some((t) => t.captureFile?.startsWith(`${dir}/`));
      if (used) continue;
      supervisor.adoptedNamespaces.delete(dir);
      void watchers.get(dir)?.close();
      watchers.delete(dir);
      removeNamespace(dir);
      log(`removed the capture namespace ${dir} of an earlier supervisor`);
    }
  };

  let stop: (how: { down: boolean; code: number }) => void = () => {};
  const stopped = new Promise<{ down: boolean; code: number }>((resolve) => (stop = resolve));
  const closeServer = async () => {
    clearInterval(timer);
    deaths?.stop();
    server.close();
    await Promise.all([...watchers.values()].map((w) => w.close()));
    rmSync(files.socket, { force: true });
    releaseLock(files, process.pid);
  };
  // Requests wait until adoption, bindings and the initial load are done.
  let setupDone: () => void = () => {};
  const ready = new Promise<void>((resolve) => (setupDone = resolve));
  // `down` (from the CLI or the dashboard's Q) resolves only when everything is gone, so a new
  // `up` can start at once.
  let goingDown: Promise<void> | null = null;
  const down = () => (goingDown ??= (async () => {
    // No more reconciliations: one woken by the tasks' deaths below would write state.json again.
    clearInterval(timer);
    deaths?.stop();
    await supervisor.handle({ op: 'status' }); // wait for requests in flight
    await recovery.close(true); // the final snapshot, marked closed
    await supervisor.stopAll();
    await tearDown(tmux, files, supervisor, opts.rerunKey, log);
    await closeServer();
    setImmediate(() => stop({ down: true, code: 0 }));
  })());
  const server = await listenControl(files.socket, async (request) => {
    await ready;
    if (request.op !== 'down') return supervisor.handle(request);
    await down();
    return null;
  });
  let timer: NodeJS.Timeout | undefined;
  let deaths: { stop: () => void } | undefined;

  try {
    await setSessionOption(tmux, sessionId, 'history-limit', HISTORY_LIMIT);
    const state = readState(files.state, log);
    const adoption = adoptTasks(await fleetTmux(tmux, sessionId).listPanes(), state, {
      socket: files.socket, env, cwd: deps.cwd, now: deps.now(),
    });
    for (const warning of adoption.warnings) log(`warning: ${warning}`);
    for (const task of adoption.tasks) supervisor.tasks.set(task.id, task);
    supervisor.nextId = adoption.nextId;
    if (state?.namespace && existsSync(state.namespace)) supervisor.adoptedNamespaces.add(state.namespace);
    if (adoption.tasks.length > 0) log(`adopted ${adoption.tasks.length} task(s)`);
    await supervisor.reconcile(); // scrapes panes that died meanwhile
    supervisor.persist();
    await watchNamespaces();
    dropIdleNamespaces();
    if (opts.rerunKey !== 'none') await installRerunKey(tmux, opts.rerunKey, cli);
    if (opts.load.length > 0) {
      const result = await supervisor.handle({ op: 'load', tasks: opts.load, env });
      for (const error of (result as { errors: string[] }).errors) log(`not loaded: ${error}`);
      for (const line of (result as { skipped: string[] }).skipped) log(`skipped: ${line}`);
    }
    recovery.start();
    if (supervisor.tasks.size > 0) recovery.changed(); // adopted tasks start a snapshot too
    log(`fleet up in tmux session '${sessionName}' (control socket ${files.socket})`);
    setupDone();
  } catch (error) {
    await closeServer();
    throw error;
  }

  timer = setInterval(() => void supervisor.tick().catch(() => undefined), RECONCILE_MS);
  deaths = hearDeaths(tmux, paneDiedChannel(files.socket), () => supervisor.tick(), log);
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: leaving every task running (a new 'fleetcom up' adopts them)`);
    stop({ down: false, code: signal === 'SIGINT' ? 130 : 0 });
  };
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];
  for (const s of signals) process.on(s, onSignal);

  if (!opts.headless && process.stdin.isTTY) {
    dashboard = startDashboard({
      input: process.stdin, output: process.stdout, stderr: deps.stderr, tmux, sessionId, pane,
      fleet: { tasks: () => supervisor.tasks.values(), handle: (request) => supervisor.handle(request) },
      quit: down, env, cwd: deps.cwd, home, sessionDir: sessionDir(env, home), scratchDir: files.dir, now: deps.now, log,
    });
  }

  // An empty start: point at a snapshot of a fleet that did not shut down (shown in the dashboard too).
  if (supervisor.tasks.size === 0) await recovery.pointAtAbandoned();

  const result = await stopped;
  for (const s of signals) process.off(s, onSignal);
  dashboard?.close();
  dashboard = null;
  if (!result.down) {
    await recovery.close(false); // kept, not closed: the tasks live on in tmux
    await closeServer();
  }
  return result.code;
}

/** `down` only: bindings restored, namespaces and state.json removed (tasks already stopped). */
async function tearDown(tmux: TmuxRun, files: RuntimeFiles, supervisor: Supervisor, key: string, log: (l: string) => void): Promise<void> {
  if (key !== 'none') await restoreRerunKey(tmux, key).catch((e: Error) => log(`could not restore the ${key} key: ${e.message}`));
  for (const dir of [supervisor.namespace, ...supervisor.adoptedNamespaces]) if (dir) removeNamespace(dir);
  rmSync(files.state, { force: true });
  log('fleet down');
}

async function installRerunKey(tmux: TmuxRun, key: string, cli: CliPaths): Promise<void> {
  const option = previousBindingOption(key);
  let previous = await showServerOption(tmux, option);
  if (previous === null) {
    const current = await listKey(tmux, 'prefix', key);
    previous = current !== null && !isFleetcomBinding(current) ? current : '';
    await setServerOption(tmux, option, previous);
  }
  await bindKey(tmux, 'prefix', key, rerunBinding(cli, previous || null));
}

async function restoreRerunKey(tmux: TmuxRun, key: string): Promise<void> {
  const option = previousBindingOption(key);
  const previous = await showServerOption(tmux, option);
  if (previous) await bindKey(tmux, 'prefix', key, previous);
  else await unbindKey(tmux, 'prefix', key);
  await unsetServerOption(tmux, option);
}
