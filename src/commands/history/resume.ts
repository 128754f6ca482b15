// `fleetcom resume <id or unique prefix> [--name N]`: back into a past conversation in one step.
// Held by a task of this fleet: say which and show its window (inside tmux). Open in another
// process: refused, naming it. Otherwise a new task runs the agent's resume form in the
// conversation's own directory with its own home.
import { callerEnv, type Deps } from '../../deps.js';
import { FleetError, ReportedError } from '../../errors.js';
import { fleetTasks, holderCheck, historyLine, matching, planResume, readHistory, type Found, type FleetView } from '../../history/index.js';
import { TmuxRunner } from '../../tmux/runner.js';
import { ask } from '../ask.js';
import { fleetView } from './history-fleet.js';
import { rowOf } from './history.js';

async function showTaskWindow(view: FleetView, windowId: string, deps: Deps): Promise<void> {
  if (deps.env.TMUX === undefined || deps.env.TMUX === '') return;
  const tmux = new TmuxRunner({ env: callerEnv(deps), socketPath: view.tmuxSocket ?? undefined });
  await tmux.runSequence([['switch-client', '-t', windowId]]);
}

export async function runResume(given: string, opts: { name?: string }, deps: Deps): Promise<number> {
  if (given.trim() === '' || /\s/.test(given)) throw new FleetError(`resume: ${JSON.stringify(given)} is not a conversation id or prefix`, 2);
  const view = await fleetView(deps);
  const gathered = await readHistory(deps.env, view, { kind: 'all' }, null);
  const candidates = matching(gathered.found, given);
  const now = deps.now();
  if (candidates.length !== 1) {
    if (candidates.length === 0) deps.stderr.write(`resume: no conversation ${given} in ${gathered.homes.length} agent home(s) (fleetcom history --all lists them)\n`);
    else {
      deps.stderr.write(`resume: ${given} names ${candidates.length} conversations; give more of the id:\n`);
      for (const row of candidates.slice(0, 20)) deps.stderr.write(`  ${historyLine(rowOf(row, null), now, null)}  (${row.home})\n`);
    }
    throw new ReportedError('', 1);
  }
  const row = candidates[0] as Found;
  const plan = planResume(row, holderCheck(fleetTasks(view), view.tmuxSocket)(row), callerEnv(deps));
  switch (plan.kind) {
    case 'held-by-task': {
      const task = view.tasks.find((t) => t.id === plan.task);
      deps.stderr.write(`${row.agent} ${row.id} is open in task ${plan.task}${task ? ` (window ${task.windowId})` : ''}: nothing started\n`);
      if (task) await showTaskWindow(view, task.windowId, deps);
      deps.stdout.write(`${plan.task}\n`);
      return 0;
    }
    case 'held-by-pid':
      deps.stderr.write(`resume: ${row.agent} ${row.id} is open in pid ${plan.pid} outside this fleet; close it there first (two writers would corrupt it)\n`);
      throw new ReportedError('', 1);
    case 'gone':
      deps.stderr.write(`resume: ${row.agent} ${row.id} ran in ${plan.cwd}, which no longer exists (a removed worktree?): re-create it, then resume again\n`);
      throw new ReportedError('', 1);
    case 'start':
      break;
  }
  const result = await ask(deps, {
    op: 'run', command: plan.command, cwd: plan.cwd, env: plan.env, name: opts.name ?? null, group: null,
  });
  deps.stderr.write(`task ${result.id}: ${plan.command} in ${plan.cwd}\n`);
  deps.stdout.write(`${result.id}\n`);
  return 0;
}
