// `fleetcom up` inside tmux: the supervisor's life from lock to teardown, composed of named
// parts. Decisions live in Supervisor and the pure modules; this file only orders them.
import { madeWorktreeAt } from '../../worktrees/registry.js';
import { WORKTREE_REFRESH_MS } from '../supervisor/worktree-statuses.js';
import { randomUUID } from 'node:crypto';
import { capturePath } from '../../capture/capture-names.js';
import { installNamespace } from '../../capture/namespace.js';
import type { RecipeTask, Request } from '../../control/protocol.js';
import { callerEnv, type Deps } from '../../deps.js';
import { FleetError } from '../../errors.js';
import { warningLines } from '../../warnings.js';
import { ensureSafeDir, isSafeDir, removeFile } from '../../fs-safety.js';
import { captureRoot, fleetRuntime, sessionDir, userHome, worktreeRegistryFile } from '../../paths.js';
import { TmuxRunner } from '../../tmux/runner.js';
import { displayMessage } from '../../tmux/sessions.js';
import { adoptLeftTasks } from '../adoption/adoption.js';
import { CaptureWatchers } from '../ids/capture-watchers.js';
import { downInOrder } from './down-order.js';
import { tearDown } from './tear-down.js';
import { fleetLog } from './fleet-log.js';
import type { FleetUi, FleetUiContext, StartUi } from './fleet-ui.js';
import { openControl } from './control-endpoint.js';
import { acquireLock, releaseLock } from './lock.js';
import { fleetRecovery } from '../recovery/recovery-writer.js';
import { nextBinding } from '../attention/next-key.js';
import { notifier } from '../attention/notify.js';
import { Alerts } from '../attention/alerts.js';
import { listClients } from '../../tmux/clients.js';
import type { NotifySettings } from '../../config/notify-schema.js';
import { rerunBinding } from '../rerun/rerun-key.js';
import { cliPaths } from '../runtime-files.js';
import { Supervisor } from '../supervisor/supervisor.js';
import { identityOf } from './process-identity.js';
import { guardRuntime, type Guard } from './runtime-guard.js';
import { readStart, setUpServer } from './startup.js';
import { liveSupervisor, parseMark } from './supervisor-mark.js';
import { restoreSupervisorWindow } from './supervisor-window.js';
import { fleetTmux } from '../tmux/tmux-adapter.js';
import { linkTmux } from '../tmux/tmux-link.js';
import { paneDiedHook } from '../tmux/tmux-commands.js';
import { startWakeups, type Wakeups } from './wakeups.js';

export interface FleetOptions {
  rerunKey: string;
  /** Output silence after which a running task is idle (config.json `idleSeconds`). */
  idleMs: number;
  /** The prefix-table key that goes to the next task needing the user ('none' disables). */
  nextKey: string;
  /** Ring the bell in a task's window when its turn ends or it asks for a permission. */
  bell: boolean;
  /** The user's command run by /bin/sh for an alert, or null (a target like notify's own). */
  notifyCommand: string | null;
  /** The alert rules and targets (config `notify`). */
  notify: NotifySettings;
  /** Tasks of a recipe to load at start (already resolved by the CLI). */
  load: RecipeTask[];
  /** The user interface (the dashboard), or null: log lines go to stderr. */
  ui: StartUi | null;
  /** Without a dashboard: asks the hosts for the alerts alone (the dashboard's feed does it otherwise); returns its stop. */
  watchHosts?: ((context: FleetUiContext) => () => void) | null;
  /** The hosts the dashboard and `next` reach (config `hosts`, up --hosts); none: this machine only. */
  hosts?: readonly string[];
  /** Adopt the panes of this tmux session running agents started by hand (up --adopt). */
  adoptPanes?: boolean;
  /** The largest message `send` types (config `sendMaxBytes`). */
  sendMaxBytes?: number;
}

type Stop = { down: boolean; code: number };

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];
const STARTS_TASKS: ReadonlySet<Request['op']> = new Set(['run', 'load', 'rerun']);

export async function runFleet(deps: Deps, opts: FleetOptions): Promise<number> {
  const env = callerEnv(deps);
  const tmux = new TmuxRunner({ env });
  const pane = env.TMUX_PANE;
  if (!env.TMUX || !pane) throw new FleetError('fleetcom up runs its supervisor inside tmux');
  const files = fleetRuntime(env);
  ensureSafeDir(files.dir);
  await acquireLock(files, process.pid);
  const keys: Array<readonly [string, (previous: string | null) => string]> = [
    [opts.rerunKey, (previous: string | null) => rerunBinding(cliPaths(), previous)] as const,
    [opts.nextKey, () => nextBinding(cliPaths(), files.socket)] as const,
  ].filter(([key]) => key !== 'none');
  const start = await readStart(tmux, pane, keys.map(([key]) => key), files.socket).catch((error: unknown) => {
    releaseLock(files, process.pid);
    throw error;
  });
  // The lock went with a removed runtime dir, but the tmux server still knows who supervises
  // this socket's tasks: a live supervisor keeps them (and makes its socket again).
  const owner = liveSupervisor(parseMark(start.mark, files.socket));
  if (owner !== null) {
    releaseLock(files, process.pid);
    throw new FleetError(
      `a fleet is already running on this tmux server: its supervisor (pid ${owner.pid}: ${owner.command || '?'}) owns the tasks of the control socket ${files.socket}, ` +
        'so none was adopted; if that socket is missing, the supervisor makes it again within seconds',
    );
  }
  const me = identityOf(process.pid) ?? { pid: process.pid, start: null, command: '' };
  const { id: sessionId, name: sessionName } = start.session;
  const primed = { globalEnvironment: start.environment }; // for the load below only
  let ui: FleetUi | null = null;
  const log = fleetLog(deps, env, (line) => {
    ui?.log(line);
    return ui !== null;
  });
  const home = userHome(env);
  const root = captureRoot(env);
  // From here on tmux is asked over one control connection while it is up (tmux-link.ts).
  const link = linkTmux(tmux, { session: sessionId, version: start.version, env, log });
  const run = link.tmux;

  let onChange = () => {};
  const notify = notifier({ bell: opts.bell }, { paneTty: (paneId) => displayMessage(run, paneId, '#{pane_tty}'), log });
  const alerts = new Alerts(opts.notify, opts.notifyCommand === null ? [] : [{ type: 'shell', command: opts.notifyCommand }], {
    env, platform: process.platform, now: deps.now, log,
    clients: () => listClients(run),
    clientTtys: async () => (await listClients(run)).map((c) => c.tty),
    attentionNow: (taskId) => {
      const task = supervisor.taskList().find((t) => t.id === taskId);
      return task === undefined ? null : supervisor.attentionOf(task);
    },
  });
  const supervisor = new Supervisor({
    tmux: fleetTmux(run, sessionId, primed),
    tmuxLink: () => link.state(),
    panes: link.panes,
    statePath: files.state,
    controlSocket: files.socket,
    paneDiedHook: paneDiedHook(files.socket),
    // $TMUX is `socket,server pid,session index`: the server this pane (and every task) is on
    // (the socket's path may hold a comma itself).
    tmuxSession: { id: sessionId, name: sessionName, socket: env.TMUX.split(',').slice(0, -2).join(',') },
    hosts: opts.hosts ?? [],
    installNamespace: () => installNamespace(root, { pid: process.pid }).dir,
    capturePath,
    now: deps.now,
    newId: randomUUID,
    log,
    idleMs: opts.idleMs,
    sendMaxBytes: opts.sendMaxBytes,
    worktreeAt: (path) => madeWorktreeAt(worktreeRegistryFile(env), path),
    onChange: () => onChange(),
    onAttention: (change) => {
      notify(change);
      alerts.local(change);
      ui?.changed();
    },
  });
  const watchers = new CaptureWatchers(supervisor, root, log);
  // This incarnation's recovery snapshot; the supervisor builds the recipe.
  const recovery = fleetRecovery({ env, startedAt: new Date(deps.now()), pid: process.pid, tasks: () => supervisor.recipe(), log });
  onChange = () => {
    void watchers.follow();
    watchers.dropIdle();
    ui?.changed();
    recovery.changed();
    wakeups?.changed();
  };

  let stop: (how: Stop) => void = () => {};
  const stopped = new Promise<Stop>((resolve) => (stop = resolve));
  let wakeups: Wakeups | null = null;
  let guard: Guard | null = null;
  const closeServer = async () => {
    // Waits and event feeds get their reply before the socket goes (a supervisor stopped by a signal too).
    supervisor.endStreams(goingDown === null ? 'the supervisor stopped (its tasks run on; fleetcom up adopts them)' : 'the fleet went down', goingDown !== null);
    alerts.stop();
    wakeups?.stop();
    guard?.stop();
    server.close();
    await watchers.closeAll();
    await link.stop();
    // A runtime dir replaced meanwhile (by a symlink, say) is not ours to remove files from.
    if (isSafeDir(files.dir)) {
      removeFile(files.socket);
      releaseLock(files, process.pid);
    }
  };
  // `down` (from the CLI or the dashboard's Q) resolves only when everything is gone, so a new
  // `up` can start at once.
  // A `down` that fails part way leaves the fleet serving (wake-ups restarted) and can be run
  // again; its snapshot is marked closed only once every task has stopped (down-order.ts).
  let goingDown: Promise<void> | null = null;
  const down = () => (goingDown ??= (async () => {
    // No more reconciliations: one woken by the tasks' deaths below would write state.json again;
    // nor runtime checks, which would make again the namespaces and state.json that down removes.
    wakeups?.stop();
    guard?.stop();
    try {
      await downInOrder({
        stopTasks: () => supervisor.stopAll(), // after the requests in flight
        snapshot: recovery,
        tearDown: () => tearDown(run, files, root, supervisor, [opts.rerunKey, opts.nextKey], log),
      });
    } catch (error) {
      goingDown = null;
      wakeups = startWakeups(run, files.socket, supervisor, log, link.eventsFlow);
      guard = startGuard();
      log(`down did not finish: ${(error as Error).message}`);
      throw new FleetError(`down did not finish: ${(error as Error).message}; run fleetcom down again`);
    }
    await restoreSupervisorWindow(run, pane).catch((e: Error) => log(`could not restore this window's name: ${e.message}`));
    await closeServer();
    setImmediate(() => stop({ down: true, code: 0 }));
  })());
  // Every request of the CLI and the dashboard: one that starts tasks first tells the
  // snapshot, which a down that could not finish its teardown left closed.
  // While going down, a read is answered from the state as it is, also between the tasks'
  // stop and the teardown: the reconciliation an idle read runs first would find every window
  // `down` closed and record each as closed outside fleetcom (writing state.json, which the
  // teardown removes), while the reader waits for it.
  const handle = <R extends Request>(request: R) => {
    if (STARTS_TASKS.has(request.op)) recovery.taskStarting();
    return supervisor.handle(request, goingDown !== null);
  };
  // Requests wait until adoption, bindings and the initial load are done.
  let setupDone: () => void = () => {};
  const ready = new Promise<void>((resolve) => (setupDone = resolve));
  const serve = async (request: Request) => {
    await ready;
    if (request.op === 'watch') return supervisor.watch(request.task);
    if (request.op !== 'down') return handle(request);
    await down();
    return null;
  };
  const server = await openControl(files.socket, serve);
  const startGuard = () => guardRuntime({
    files, root,
    socketInode: () => server.inode(),
    listenAgain: () => server.listenAgain(),
    namespaces: () => supervisor.captureNamespaces(),
    rewatch: () => watchers.refresh(),
    persist: () => supervisor.saveState(),
    log,
  });

  try {
    await adoptLeftTasks(supervisor, run, { sessionId, files, root, env, cwd: deps.cwd, now: deps.now(), log }, start);
    if (opts.adoptPanes) {
      const taken = await supervisor.adoptPanes(sessionId);
      for (const pane of taken.refused) log(`not adopted: pane ${pane.paneId}: ${pane.why ?? 'refused'}`);
    }
    await watchers.follow();
    watchers.dropIdle();
    await setUpServer(run, { pane, read: start, keys, mark: { socket: files.socket, me }, log });
    if (opts.load.length > 0) {
      const result = await supervisor.handle({ op: 'load', tasks: opts.load, env });
      // Summed up by reason: a recipe of thousands of entries must not flood the log.
      const more = 'fleetcom load --verbose lists every one';
      for (const line of warningLines(result.errors, { label: 'not loaded: ', more })) log(line);
      for (const line of warningLines(result.skipped ?? [], { label: 'skipped: ', more })) log(line);
    }
    primed.globalEnvironment = null;
    recovery.start();
    if (supervisor.size > 0) recovery.changed(); // adopted tasks start a snapshot too
    log(`fleet up in tmux session '${sessionName}' (control socket ${files.socket})`);
    setupDone();
  } catch (error) {
    await closeServer();
    throw error;
  }

  wakeups = startWakeups(run, files.socket, supervisor, log, link.eventsFlow);
  // Not while going down: the windows down closes come back as events, and one handled after
  // the teardown would record its task as closed outside fleetcom, writing state.json again.
  link.serve({
    titleChanged: (paneId, title) => {
      if (goingDown === null) supervisor.titleChanged(paneId, title);
    },
    windowsClosed: (windowIds) => {
      if (goingDown === null) supervisor.windowsClosed(windowIds);
    },
    lookSoon: () => wakeups?.soon(),
  });
  guard = startGuard();
  // The worktree tasks' branch state, for ls and the dashboard (supervisor/worktree-statuses.ts).
  const worktreeTimer = setInterval(() => {
    void supervisor.refreshWorktrees().then((changed) => changed && ui?.changed(), () => {});
  }, WORKTREE_REFRESH_MS);
  worktreeTimer.unref();
  void stopped.then(() => clearInterval(worktreeTimer));
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: leaving every task running (a new 'fleetcom up' adopts them)`);
    stop({ down: false, code: signal === 'SIGINT' ? 130 : 0 });
  };
  for (const s of SIGNALS) process.on(s, onSignal);

  const context: FleetUiContext = {
    tmux: run, sessionId, pane,
    fleet: { tasks: () => supervisor.taskList(), attention: (task) => supervisor.attentionOf(task), handle, worktreeStatus: (path) => supervisor.worktreeStatus(path) },
    quit: down, env, cwd: deps.cwd, home, sessionDir: sessionDir(env), scratchDir: files.dir, now: deps.now, log,
    remoteAttention: (task, previous) => alerts.remote(task, previous),
  };
  ui = opts.ui?.(context) ?? null;
  const stopWatchingHosts = opts.watchHosts?.(context) ?? null;

  // An empty start: point at a snapshot of a fleet that did not shut down (shown in the dashboard too).
  if (supervisor.size === 0) await recovery.pointAtAbandoned();

  const result = await stopped;
  for (const s of SIGNALS) process.off(s, onSignal);
  stopWatchingHosts?.();
  ui?.close();
  ui = null;
  if (!result.down) {
    await restoreSupervisorWindow(run, pane).catch(() => undefined); // this pane supervises no more
    await recovery.close(false); // kept, not closed: the tasks live on in tmux
    await closeServer();
  }
  return result.code;
}
