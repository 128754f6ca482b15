// `fleetcom up`: inside tmux the supervisor runs in this pane; outside, a tmux session is
// made whose first window runs `fleetcom up`, then attached (or named, with --detach).
import { warningLines } from '../../warnings.js';
import type { RecipeTask } from '../../control/protocol.js';
import { callSupervisor } from '../../control/client.js';
import { callerEnv, type Deps } from '../../deps.js';
import { errorMessage, FleetError, UsageError } from '../../errors.js';
import type { FleetUiContext } from '../../fleet/lifecycle/fleet-ui.js';
import { runningFleet } from '../../fleet/lifecycle/lock.js';
import { runFleet } from '../../fleet/lifecycle/run-fleet.js';
import { noteFleet } from '../../fleet/lifecycle/fleet-index.js';
import { cliPaths } from '../../fleet/runtime-files.js';
import { windowEnv } from '../../fleet/spawn/window-env.js';
import { parentMarkersIn } from '../../harness/index.js';
import { ensureSafeDir } from '../../fs-safety.js';
import { fleetIndexFile, fleetRuntime } from '../../paths.js';
import { showGlobalEnvironment } from '../../tmux/options.js';
import { TmuxRunner } from '../../tmux/runner.js';
import { hasSession, newSession } from '../../tmux/sessions.js';
import { assertVersion } from '../../tmux/version.js';
import { readSessionArg } from './recipe-io.js';
import { hostsLeftMessage } from '../../sessions/index.js';
import type { Settings } from '../../config/keys.js';
import { effectiveSettings } from '../../config/settings.js';
import { TMUX_KEY } from '../../config/values.js';
import { parseHostList } from '../../remote/host-name.js';
import { hostSettings } from '../hosts/host-link-of.js';

export interface UpOptions extends Partial<Omit<Settings, 'hosts'>> {
  /** `--hosts a,b`: the hosts the dashboard and `next` reach (instead of config `hosts`). */
  hosts?: string;
  headless?: boolean;
  detach?: boolean;
  /** Adopt every pane of the tmux session that runs an agent started by hand. */
  adopt?: boolean;
  tmuxSession?: string;
  tmuxSocket?: string;
  /** From `--no-bell`: commander gives true unless the flag is there. */
  bell?: boolean;
}

export async function runUp(session: string | undefined, opts: UpOptions, deps: Deps): Promise<number> {
  const inside = Boolean(deps.env.TMUX) && opts.tmuxSocket === undefined && opts.tmuxSession === undefined;
  for (const [flag, key] of [['--rerun-key', opts.rerunKey], ['--next-key', opts.nextKey]] as const) {
    if (key !== undefined && key !== 'none' && !TMUX_KEY.test(key)) throw new UsageError(`${flag} ${key} is not a tmux key name`);
  }
  if (typeof opts.notifyCommand === 'string' && opts.notifyCommand.trim() === '') throw new UsageError('--notify-command is empty');
  // config.json under the flags; a bad file stops `up` here, before tmux is touched.
  const { settings } = effectiveSettings(deps, {
    rerunKey: opts.rerunKey, idleSeconds: opts.idleSeconds, groupBy: opts.groupBy, nextKey: opts.nextKey, notifyCommand: opts.notifyCommand,
  });
  if (settings.rerunKey !== 'none' && settings.rerunKey === settings.nextKey) {
    throw new UsageError(`the rerun key and the next-task key are both ${settings.nextKey} (--rerun-key, --next-key)`);
  }
  const bell = opts.bell !== false;
  const hosts = opts.hosts === undefined ? settings.hosts : parseHostList(opts.hosts);
  if (inside) {
    if (opts.detach) throw new UsageError('--detach is for starting a fleet from outside tmux');
    const read = session ? await readSessionArg(session, deps) : null;
    const left = read === null ? null : hostsLeftMessage(read);
    if (left !== null) deps.stderr.write(`${left}\n`);
    const worktrees = read === null ? null : await (await import('../worktrees/worktree-run.js')).withWorktrees(read.tasks, deps);
    for (const line of warningLines(worktrees?.refused ?? [], { label: 'not loaded: ', more: 'fleetcom doctor lists every one' })) deps.stderr.write(`${line}\n`);
    const load: RecipeTask[] = worktrees?.ready ?? [];
    // The dashboard needs a terminal; without one (or --headless) log lines go to stderr.
    const grouping = settings.groupBy === 'dir' ? 'directory' : settings.groupBy;
    const idleMs = settings.idleSeconds * 1000;
    // Loaded only for a dashboard: a headless supervisor starts without its code.
    const dashboard = opts.headless || !process.stdin.isTTY ? null : await import('../../dashboard/terminal.js');
    const reach = dashboard === null || hosts.length === 0 ? null : { ...(await import('../hosts/dashboard-hosts.js')), settings: hostSettings(deps) };
    const ui = dashboard === null
      ? null
      : (context: FleetUiContext) => dashboard.startDashboard({
        ...context, grouping, idleMs, input: process.stdin, output: process.stdout, stderr: deps.stderr,
        hosts: reach === null ? null : reach.dashboardHosts(hosts, reach.settings, context),
      });
    // No dashboard to ask the hosts: a loop of its own does, when there is anywhere to alert.
    const alerting = settings.notify.targets.length > 0 || settings.notifyCommand !== null;
    const watcher = dashboard !== null || hosts.length === 0 || !alerting ? null : await import('../hosts/host-alerts.js');
    const watchHosts = watcher === null ? null : (context: FleetUiContext) => watcher.watchHostsForAlerts(hosts, hostSettings(deps), context);
    // Noted before the supervisor starts, so another fleet's worktrees --prune knows this one's tasks.
    await noteFleet(fleetIndexFile(deps.env), fleetRuntime(callerEnv(deps)).dir).catch((error: unknown) => {
      deps.stderr.write(`fleetcom: ${errorMessage(error)} (other fleets' worktrees --prune will not know this fleet's tasks)\n`);
    });
    return runFleet(deps, {
      rerunKey: settings.rerunKey, idleMs, nextKey: settings.nextKey, bell, notifyCommand: settings.notifyCommand, notify: settings.notify, load, ui, hosts, watchHosts,
      adoptPanes: opts.adopt === true, sendMaxBytes: settings.sendMaxBytes,
    });
  }
  if (opts.headless) throw new UsageError('--headless runs only inside tmux (the supervisor needs a pane)');
  return startOutside(session, opts, settings, deps);
}

async function startOutside(session: string | undefined, opts: UpOptions, settings: Settings, deps: Deps): Promise<number> {
  const env = callerEnv(deps);
  delete env.TMUX;
  delete env.TMUX_PANE;
  // A tmux server started here takes this environment as its global one, which every task
  // would inherit: never a calling claude's session markers.
  for (const name of parentMarkersIn(env)) delete env[name];
  const tmux = new TmuxRunner({ env, socketPath: opts.tmuxSocket });
  await assertVersion(tmux);
  const name = opts.tmuxSession ?? 'fleetcom';
  const files = fleetRuntime(deps.env);
  ensureSafeDir(files.dir);
  if (session) await readSessionArg(session, deps); // a bad recipe fails here, before tmux
  const running = await runningFleet(files);
  if (running) {
    const status = await callSupervisor(files.socket, { op: 'status' }).catch(() => null);
    if (status?.tmuxSessionName !== name || !(await hasSession(tmux, name))) throw running;
    return attachOrName(tmux, name, opts, deps);
  }
  if (await hasSession(tmux, name)) throw new FleetError(`tmux session '${name}' already exists and holds no fleet; choose another with --tmux-session`);
  const global = await showGlobalEnvironment(tmux).catch(() => ({}));
  const cli = cliPaths();
  const argv = [cli.node, cli.script, 'up', '--rerun-key', settings.rerunKey, '--idle-seconds', String(settings.idleSeconds),
    '--group-by', settings.groupBy, '--next-key', settings.nextKey, ...(opts.bell === false ? ['--no-bell'] : []),
    ...(opts.adopt ? ['--adopt'] : []),
    ...(settings.notifyCommand !== null ? ['--notify-command', settings.notifyCommand] : []),
    ...(opts.hosts !== undefined ? ['--hosts', opts.hosts] : []), ...(session ? [session] : [])];
  await newSession(tmux, { name, cwd: deps.cwd, argv, env: windowEnv(env, global, {}), path: env.PATH });
  await waitForFleet(files.socket, name);
  return attachOrName(tmux, name, opts, deps);
}

async function attachOrName(tmux: TmuxRunner, name: string, opts: UpOptions, deps: Deps): Promise<number> {
  if (opts.detach) {
    deps.stdout.write(`${name}\n`);
    return 0;
  }
  return tmux.interactive(['attach-session', '-t', name]);
}

/**
 * The new session's supervisor must answer before `up` reports success. Asked every 10 ms: an
 * attempt before its socket exists fails at once, and one after waits for its setup, so a
 * longer pause only made `up` return later (by 50 ms on average at 100 ms).
 */
async function waitForFleet(socket: string, name: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      await callSupervisor(socket, { op: 'status' });
      return;
    } catch {
      if (Date.now() > deadline) throw new FleetError(`the fleet in tmux session '${name}' did not start; attach to it to see why (tmux attach -t ${name})`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

