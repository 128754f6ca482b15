// What wakes the supervisor's reconciliation, for as long as the fleet serves.
import type { TmuxRun } from '../../tmux/runner.js';
import { hearDeaths } from '../exits/death-channel.js';
import { BLIND_WATCH, canWatchProcesses, watchProcesses } from '../exits/process-watch.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { paneDiedChannel } from '../tmux/tmux-commands.js';

/** The periodic check's interval while tmux's events do not come (no control connection). */
export const RECONCILE_MS = 2_000;
/**
 * The periodic check's interval while they come (tmux-link.ts): closed windows and titles
 * arrive as events, so it is only the safety net for what none covers (a task window moved to
 * another session, idleness).
 */
export const EVENTS_RECONCILE_MS = 5_000;
/** How soon a hint (a window added, a connection made again) is followed by a reconciliation. */
export const SOON_MS = 250;

export interface Wakeups {
  /** The fleet changed (a task started, ended or went): the process watch reads its targets again. */
  changed(): void;
  /** Something may have changed that no event names: a reconciliation soon (calls coalesce). */
  soon(): void;
  stop(): void;
}

/**
 * What sees a task end: the pane-died channel, the process watch (tmux can miss a death for
 * seconds; the supervisor then reads the pane itself and makes tmux reap it), and a timer's
 * reconciliation for what both miss (closed windows, idleness), every RECONCILE_MS, or every
 * EVENTS_RECONCILE_MS while `eventsFlow()`.
 */
export function startWakeups(tmux: TmuxRun, socket: string, supervisor: Supervisor, log: (line: string) => void, eventsFlow: () => boolean = () => false): Wakeups {
  // A reconciliation may have read a rerun's new pid: the watch takes it after each.
  const reconcile = () => supervisor.tick().then(() => processes.refresh());
  let stopped = false;
  let timer: NodeJS.Timeout;
  const tick = () => {
    void reconcile().catch(() => undefined);
    schedule();
  };
  const schedule = () => {
    if (!stopped) timer = setTimeout(tick, eventsFlow() ? EVENTS_RECONCILE_MS : RECONCILE_MS);
  };
  schedule();
  let soon: NodeJS.Timeout | null = null;
  const processes = canWatchProcesses()
    ? watchProcesses(() => supervisor.runningPids(), (id, ending) => void supervisor.processEnded(id, ending).catch(() => undefined))
    : BLIND_WATCH;
  // A hook names no pane: the process watch, asked at once, finds whose process tmux reaped;
  // only when it knows of none does a whole reconciliation look.
  const deaths = hearDeaths(tmux, paneDiedChannel(socket), () => (processes.checkNow() > 0 ? Promise.resolve() : reconcile()), log);
  return {
    changed: () => processes.refresh(),
    soon: () => {
      if (stopped || soon !== null) return;
      soon = setTimeout(() => {
        soon = null;
        void reconcile().catch(() => undefined);
      }, SOON_MS);
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      if (soon !== null) clearTimeout(soon);
      deaths.stop();
      processes.stop();
    },
  };
}
