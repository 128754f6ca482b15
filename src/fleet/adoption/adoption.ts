// Taking over the tasks a dead supervisor left on this tmux server, before any request is
// served: read (adopt.ts decides), their paths checked (adopted-paths.ts), their attention
// replayed quietly, and panes that died meanwhile scraped.
import type { RuntimeFiles } from '../../paths.js';
import { needsReaping, type PaneRecord } from '../../tmux/panes.js';
import type { TmuxRun } from '../../tmux/runner.js';
import { adoptTasks } from './adopt.js';
import { rebindAdopted } from './adopted-ids.js';
import { trustedPaths } from './adopted-paths.js';
import { readState } from './state-file.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { fleetTmux, paneInfo } from '../tmux/tmux-adapter.js';

/**
 * The tasks a dead supervisor left on this tmux server, as its state.json describes them or,
 * where state.json is lost or damaged, as their windows do (`read`: the panes and window
 * records the start read).
 */
export async function adoptLeftTasks(
  supervisor: Supervisor,
  tmux: TmuxRun,
  at: { sessionId: string; files: RuntimeFiles; root: string; env: Record<string, string>; cwd: string; now: number; log: (line: string) => void },
  read: { panes: readonly PaneRecord[]; specs: ReadonlyMap<string, string> },
): Promise<void> {
  const state = readState(at.files.state, at.log);
  const windows = fleetTmux(tmux, at.sessionId);
  // A pane tmux has not reaped yet is read again once listPanes has nudged the server.
  const panes = read.panes.some(needsReaping) ? await windows.listPanes() : read.panes.map(paneInfo);
  const adoption = adoptTasks(panes, state, { socket: at.files.socket, env: at.env, cwd: at.cwd, now: at.now, specs: read.specs });
  for (const warning of adoption.warnings) at.log(`warning: ${warning}`);
  for (const task of adoption.tasks) {
    const rebound = rebindAdopted(task);
    if (rebound !== null) at.log(rebound);
  }
  const claimed = { tasks: adoption.tasks, nextId: adoption.nextId, namespaces: state?.namespace ? [state.namespace] : [] };
  await supervisor.adopt(trustedPaths(claimed, at.root, (w) => at.log(`warning: ${w}`)));
  if (adoption.tasks.length > 0) at.log(`adopted ${adoption.tasks.length} task(s)`);
  await supervisor.replayAttention(); // before the first reconciliation, which would notify
  await supervisor.settle(); // scrapes panes that died meanwhile
}
