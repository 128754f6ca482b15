// Going to a host's task from this machine's fleet: one local window per host, running
// `ssh -t HOST tmux attach` (remote-tmux.ts), and the task's window selected there. One window
// (one session of the host's master) per host, however many of its tasks the user visits: a
// tmux session has one current window for all its clients, so a second attach to the same
// session would show the same window anyway, and sshd's MaxSessions (10) stays far away.
import type { TmuxRun } from '../tmux/runner.js';
import { setWindowOption } from '../tmux/options.js';
import { killWindow, newWindow, showWindow } from '../tmux/windows.js';
import { checkMaster, type HostLink } from './host-link.js';
import { ensureControlDir } from './control-socket.js';
import { attachArgv, selectRemoteWindow, targetProblem, type RemoteTarget } from './remote-tmux.js';

/** The window option that marks a local window as the attach window of a host (its value). */
export const HOST_WINDOW_OPTION = '@fleetcom-host';
/** The id (on that host) of the task last shown there: where `next` goes on from. */
export const HOST_TASK_OPTION = '@fleetcom-host-task';

export interface LocalFleet {
  tmux: TmuxRun;
  /** The fleet's tmux session (its id), where the host's window is made. */
  sessionId: string;
  /** The client to show it in (the one that pressed a key), or null: the session's current window. */
  client: string | null;
  cwd: string;
}

interface HostWindow {
  windowId: string;
  dead: boolean;
}

/** Pure: the session's window attached to `host`, from `#{window_id} #{pane_dead} #{@fleetcom-host}` lines. */
export function hostWindowOf(listing: string, host: string): HostWindow | null {
  for (const line of listing.split('\n')) {
    const m = /^(@\d+) ([01]) (.*)$/.exec(line);
    if (m !== null && m[3] === host) return { windowId: m[1] as string, dead: m[2] === '1' };
  }
  return null;
}

async function hostWindow(fleet: LocalFleet, host: string): Promise<HostWindow | null> {
  const out = await fleet.tmux.runSequence([['list-windows', '-t', fleet.sessionId, '-F', `#{window_id} #{pane_dead} #{${HOST_WINDOW_OPTION}}`]]);
  return hostWindowOf(out, host);
}

/**
 * Shows the target's window: in the host's local window when one is attached (the task's
 * window is selected there first), else in a new one. `opened` when a window was made (its ssh
 * may still be asking for a passphrase there), `shown` when the attached one was reused.
 */
export async function showRemoteTask(fleet: LocalFleet, link: HostLink, target: RemoteTarget, deadlineMs: number): Promise<'opened' | 'shown'> {
  const problem = targetProblem(target);
  if (problem !== null) throw new Error(`host ${target.host}: task ${target.id}: ${problem}`);
  const existing = await hostWindow(fleet, target.host);
  if (existing !== null && !existing.dead) {
    await selectRemoteWindow(link, target, deadlineMs);
    await setWindowOption(fleet.tmux, existing.windowId, HOST_TASK_OPTION, String(target.id));
    await showWindow(fleet.tmux, existing.windowId, fleet.client);
    return 'shown';
  }
  // A window whose ssh failed stays (remain-on-exit failed) to show why; it is replaced now.
  if (existing !== null) await killWindow(fleet.tmux, existing.windowId);
  // A stale or wedged master is replaced before the window's ssh would hang on it.
  ensureControlDir(link.runtimeDir, link.controlDir);
  await checkMaster(link, target.host);
  const made = await newWindow(fleet.tmux, {
    session: fleet.sessionId,
    name: `ssh ${target.host}`,
    cwd: fleet.cwd,
    argv: attachArgv(link, target),
    // Detaching there ends ssh with 0 and closes the window; a failed ssh keeps its reason on screen.
    windowOptions: { [HOST_WINDOW_OPTION]: target.host, [HOST_TASK_OPTION]: String(target.id), 'remain-on-exit': 'failed' },
  });
  await showWindow(fleet.tmux, made.windowId, fleet.client);
  return 'opened';
}
