// What wakes the supervisor's reconciliation, for as long as the fleet serves.
import type { TmuxRun } from '../tmux/runner.js';
import { hearDeaths } from './death-channel.js';
import { watchProcesses } from './process-watch.js';
import type { Supervisor } from './supervisor.js';
import { paneDiedChannel } from './tmux-commands.js';

/** The periodic check's interval: for what hooks and the process watch miss (closed windows, idleness). */
const RECONCILE_MS = 2_000;

/**
 * What wakes a reconciliation: a timer for what hooks miss, the pane-died channel, and a task's
 * process seen ended by the process watch (tmux can miss a death for seconds; reconciling then
 * makes tmux reap it and run pane-died).
 */
export function startWakeups(tmux: TmuxRun, socket: string, supervisor: Supervisor, log: (line: string) => void): { stop: () => void } {
  const tick = () => void supervisor.tick().catch(() => undefined);
  const timer = setInterval(tick, RECONCILE_MS);
  const deaths = hearDeaths(tmux, paneDiedChannel(socket), () => supervisor.tick(), log);
  const processes = watchProcesses(() => supervisor.runningPids(), tick);
  return {
    stop: () => {
      clearInterval(timer);
      deaths.stop();
      processes.stop();
    },
  };
}
