// What wakes the supervisor's reconciliation, for as long as the fleet serves.
import type { TmuxRun } from '../../tmux/runner.js';
import { hearDeaths } from '../exits/death-channel.js';
import { BLIND_WATCH, canWatchProcesses, watchProcesses } from '../exits/process-watch.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { paneDiedChannel } from '../tmux/tmux-commands.js';

/** The periodic check's interval: for what hooks and the process watch miss (closed windows, idleness). */
export const RECONCILE_MS = 2_000;

export interface Wakeups {
  /** The fleet changed (a task started, ended or went): the process watch reads its targets again. */
  changed(): void;
  stop(): void;
}

/**
 * What sees a task end: the pane-died channel, the process watch (tmux can miss a death for
 * seconds; the supervisor then reads the pane itself and makes tmux reap it), and a timer's
 * reconciliation for what both miss (closed windows, idleness).
 */
export function startWakeups(tmux: TmuxRun, socket: string, supervisor: Supervisor, log: (line: string) => void): Wakeups {
  // A reconciliation may have read a rerun's new pid: the watch takes it after each.
  const reconcile = () => supervisor.tick().then(() => processes.refresh());
  const timer = setInterval(() => void reconcile().catch(() => undefined), RECONCILE_MS);
  const processes = canWatchProcesses()
    ? watchProcesses(() => supervisor.runningPids(), (id, ending) => void supervisor.processEnded(id, ending).catch(() => undefined))
    : BLIND_WATCH;
  // A hook names no pane: the process watch, asked at once, finds whose process tmux reaped;
  // only when it knows of none does a whole reconciliation look.
  const deaths = hearDeaths(tmux, paneDiedChannel(socket), () => (processes.checkNow() > 0 ? Promise.resolve() : reconcile()), log);
  return {
    changed: () => processes.refresh(),
    stop: () => {
      clearInterval(timer);
      deaths.stop();
      processes.stop();
    },
  };
}
