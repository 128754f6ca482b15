// `fleetcom resume <id or unique prefix> [--name N]`: back into a past conversation in one step.
// Held by a task of this fleet: say which and show its window (inside tmux). Open in another
// process: refused, naming it. Otherwise a new task runs the agent's resume form in the
// conversation's own directory with its own home.
import { existsSync } from 'node:fs';
import { callerEnv, type Deps } from '../deps.js';
import { FleetError, ReportedError } from '../errors.js';
import { detect, harnessFor, resumeCommand } from '../harness/index.js';
import { holderCheck, historyLine, type Found } from '../history/index.js';
import { TmuxRunner } from '../tmux/runner.js';
import { ask } from './ask.js';
import { fleetTasks, fleetView, readHistory, type FleetView } from './history-fleet.js';
import { rowOf } from './history.js';

/** The conversations `given` names: every exact id, else every id it begins. */
export function matching(found: readonly Found[], given: string): Found[] {
  const exact = found.filter((row) => row.id === given);
  return exact.length > 0 ? exact : found.filter((row) => row.id.startsWith(given));
}

/** The task's environment: the caller's, with the conversation's home as the agent's only home variable. */
export function resumeEnv(base: Record<string, string>, row: Pick<Found, 'agent' | 'home'>): Record<string, string> {
  const rule = harnessFor(row.agent).home;
  const env = { ...base };
  for (const name of rule.vars) delete env[name];
  return { ...env, ...rule.varsFor(row.home) };
}

async function showTaskWindow(view: FleetView, windowId: string, deps: Deps): Promise<void> {
  if (deps.env.TMUX === undefined || deps.env.TMUX === '') return;
  const tmux = new TmuxRunner({ env: callerEnv(deps), socketPath: view.tmuxSocket ?? undefined });
  await tmux.runSequence([['switch-client', '-t', windowId]]);
}

export async function runResume(given: string, opts: { name?: string }, deps: Deps): Promise<number> {
  if (given.trim() === '' || /\s/.test(given)) throw new FleetError(`resume: ${JSON.stringify(given)} is not a conversation id or prefix`, 2);
  const view = await fleetView(deps);
  const gathered = await readHistory(deps, view, { kind: 'all' }, null);
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
  const held = holderCheck(fleetTasks(view), view.tmuxSocket)(row);
  if (held !== null && 'task' in held) {
    const task = view.tasks.find((t) => t.id === held.task);
    deps.stderr.write(`${row.agent} ${row.id} is open in task ${held.task}${task ? ` (window ${task.windowId})` : ''}: nothing started\n`);
    if (task) await showTaskWindow(view, task.windowId, deps);
    deps.stdout.write(`${held.task}\n`);
    return 0;
  }
  if (held !== null) {
    deps.stderr.write(`resume: ${row.agent} ${row.id} is open in pid ${held.pid} outside this fleet; close it there first (two writers would corrupt it)\n`);
    throw new ReportedError('', 1);
  }
  if (!existsSync(row.cwd)) {
    deps.stderr.write(`resume: ${row.agent} ${row.id} ran in ${row.cwd}, which no longer exists (a removed worktree?): re-create it, then resume again\n`);
    throw new ReportedError('', 1);
  }
  const detection = detect(row.agent);
  if (detection.form !== 'bare') throw new FleetError(`resume: ${row.agent} is not a command fleetcom knows how to resume`, 1);
  const command = resumeCommand(detection, row.id);
  const result = await ask(deps, {
    op: 'run', command, cwd: row.cwd, env: resumeEnv(callerEnv(deps), row), name: opts.name ?? null, group: null,
  });
  deps.stderr.write(`task ${result.id}: ${command} in ${row.cwd}\n`);
  deps.stdout.write(`${result.id}\n`);
  return 0;
}
