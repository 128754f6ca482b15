// What each control request does to the fleet (requests.ts maps ops to these). They run on the
// supervisor's queue: only the Supervisor holds a TaskOperations, and calls it from there.
import type { LsRecord, RecipeTask, ReplyOf } from '../../control/protocol.js';
import { FleetError } from '../../errors.js';
import { nextNeedingYou } from '../../harness/index.js';
import type { FleetState } from './fleet-state.js';
import { planLaunch, type LaunchInputs } from '../spawn/launch.js';
import { unheldSpecs } from '../rerun/ownership-guard.js';
import { paneDied, reconcile } from '../exits/reconcile.js';
import type { RequestTarget } from './requests.js';
import { planRerun, rerunFields } from '../rerun/rerun-plan.js';
import { recipeOf } from '../ids/resolution.js';
import { planSpawns, type Spec } from '../spawn/spawn-plan.js';
import { stopFollowed, stopProcessGroups } from '../lifecycle/stop.js';
import { PROC_ROOT } from '../../ownership/index.js';
import { shellChildren, underShell } from '../agent-panes/followed.js';
import type { Task } from './task.js';
import { adoptAgentPanes, listAgentPanes } from '../agent-panes/adopt-panes.js';
import type { Warning } from '../../warnings.js';
import { viewedPane } from './pane-view.js';

export class TaskOperations implements RequestTarget {
  constructor(private readonly fleet: FleetState) {}

  status(): ReplyOf<'status'> {
    const { tmuxSession } = this.fleet.deps;
    const link = this.fleet.deps.tmuxLink?.();
    return {
      pid: process.pid, tmuxSessionId: tmuxSession.id, tmuxSessionName: tmuxSession.name, tmuxSocket: tmuxSession.socket ?? null,
      hosts: [...(this.fleet.deps.hosts ?? [])], tasks: this.fleet.tasks.size,
      ...(link === undefined ? {} : { tmuxLink: { ...link, reconciliations: this.fleet.reconciliations } }),
    };
  }

  list(): LsRecord[] {
    const now = this.fleet.deps.now();
    const ids = this.fleet.currentIds(now);
    return this.fleet.tasks.values().map((task) => this.fleet.view(task, now, ids));
  }

  /** Bytes typed into the task's pane. */
  async input(task: Task, bytes: Buffer): Promise<void> {
    const panes = this.fleet.deps.panes;
    if (panes === undefined) throw new FleetError('this supervisor types into no pane');
    await panes.sendInput(viewedPane(task, String(task.id)), bytes);
  }

  find(ref: string): Task {
    const task = this.fleet.tasks.lookup(ref);
    if (!task) throw new FleetError(`no task ${ref} in this fleet (see fleetcom ls)`);
    return task;
  }

  /**
   * Shows the next task that needs the user (after the one at `from`) in `client`; its id, or
   * null. Without `wrap`, null also when the next one would be back at the start of the order.
   */
  async next(from: string | null, client: string | null, wrap = true): Promise<{ id: number } | null> {
    const { tasks, attention } = this.fleet;
    const current = from === null ? null : (tasks.lookup(from)?.id ?? null);
    const target = nextNeedingYou(tasks.values().map((task) => ({ task, id: task.id, ...attention.of(task) })), current, wrap);
    if (target === null) return null;
    await this.fleet.deps.tmux.showWindow(target.task.windowId, client);
    return { id: target.id };
  }

  async spawn(spec: Spec): Promise<Task> {
    const [result] = await this.spawnAll([spec], await this.fleet.launchInputs());
    if (result === undefined || result instanceof Error) throw result ?? new FleetError('no window was made');
    return result;
  }

  /** Errors and skipped entries come back one warning each; the caller sums them up (warnings.ts). */
  async load(entries: RecipeTask[], env: Record<string, string>): Promise<ReplyOf<'load'>> {
    const ids: number[] = [];
    const errors: Warning[] = [];
    // An entry's agent homes go on top of the caller's environment (the protocol admits no other variables).
    const specs = entries.map((entry) => ({ command: entry.cmd, cwd: entry.cwd, env: { ...env, ...entry.env }, name: entry.name, group: entry.group, worktree: entry.worktree }));
    const { start, skipped } = unheldSpecs(specs, this.fleet.holders());
    const results = await this.spawnAll(start, await this.fleet.launchInputs());
    for (const [i, result] of results.entries()) {
      if (result instanceof Error) errors.push({ entry: `${start[i]?.cwd}: ${start[i]?.command}`, reason: result.message });
      else ids.push(result.id);
    }
    return { ids, errors, skipped };
  }

  /**
   * Plans every spec (ids in order), then makes their windows with as few tmux calls as fit
   * (npm run bench: a tmux client per window made a load of 50 take twice tmux's own time).
   * One result per spec: its task, or why it was not started.
   */
  private async spawnAll(specs: readonly Spec[], inputs: LaunchInputs): Promise<Array<Task | Error>> {
    const { tasks, marks, deps } = this.fleet;
    const now = deps.now();
    const { planned, failed } = planSpawns(specs, tasks.nextId, inputs, { now, window: (draft, launch) => marks.window(draft, launch, now) });
    const results: Array<Task | Error> = specs.map((_, index) => failed.get(index) ?? new FleetError('not started'));
    if (planned.length === 0) return results;
    const made = await deps.tmux.newWindows(planned.map((p) => p.window));
    for (const [k, { index, draft, pinned, rebound }] of planned.entries()) {
      const window = made[k];
      if (window === undefined || window instanceof Error) {
        results[index] = window ?? new FleetError('tmux made no window');
        continue;
      }
      const task = { ...draft, windowId: window.windowId, paneId: window.paneId };
      tasks.add(task, window.panePid ?? null, window.paneTty ?? null);
      marks.nameChange(task, null, now); // the name it was made with
      if (rebound) deps.log(`task ${task.id}: ${rebound}`);
      deps.log(`task ${task.id} started: ${task.command}${pinned ? ` (pinned ${pinned})` : ''}`);
      results[index] = task;
    }
    if (results.some((r) => !(r instanceof Error))) this.fleet.changed();
    return results;
  }

  async rerun(task: Task): Promise<Task> {
    const { marks, deps } = this.fleet;
    const now = deps.now();
    const rerun = planRerun(task, this.fleet.holders(), now);
    if (task.followed && task.paneId !== '') await this.shellLeftIdle(task, rerun.command);
    const { run } = rerun;
    const launch = planLaunch({ id: task.id, run, command: rerun.command, cwd: task.cwd, env: task.env }, await this.fleet.launchInputs());
    const { command } = launch;
    const oldCapture = task.captureFile;
    const hadAttention = this.fleet.attention.of(task).attention !== null;
    const next = { ...task, ...rerunFields(task, rerun, launch, now) };
    let started: { panePid: number | null; paneTty: string | null };
    if (task.paneId === '') {
      // Its window was closed outside fleetcom: the task comes back in a new window.
      const [made] = await deps.tmux.newWindows([marks.window(next, launch, now)]);
      if (made === undefined || made instanceof Error) throw made ?? new FleetError('tmux made no window');
      Object.assign(next, { windowId: made.windowId, paneId: made.paneId });
      started = { panePid: made.panePid ?? null, paneTty: made.paneTty ?? null };
    } else {
      await marks.announceRun(next);
      started = await deps.tmux.respawnPane(task.paneId, { cwd: task.cwd, env: launch.windowEnv, argv: launch.argv, path: launch.path });
    }
    Object.assign(task, next);
    // The process watch sees this run end from now on, not from the next reconciliation.
    if (started.panePid !== null) this.fleet.tasks.notePid(task, started.panePid, started.paneTty);
    // Resuming an ended job's conversation makes it the pane's own again.
    if (task.parkedJob && !task.parkedJob.alive && rerun.parked) task.parkedJob = null;
    this.fleet.namespaces.dropCapture(oldCapture);
    if (hadAttention) await marks.showAttention(task, null);
    if (launch.rebound) deps.log(`task ${task.id}: ${launch.rebound}`);
    deps.log(`task ${task.id} rerun ${run}: ${command}`);
    await this.fleet.rename(task);
    this.fleet.changed();
    return task;
  }

  /**
   * An adopted agent's shell lives on after it: a rerun replaces the shell with the resume
   * command only when nothing else runs in it (a rerun must not kill what the user started there).
   */
  private async shellLeftIdle(task: Task, command: string): Promise<void> {
    const panePid = (await this.fleet.deps.tmux.livePanePids([task.paneId])).get(task.paneId);
    if (panePid === undefined || !underShell(task, panePid)) return;
    const running = shellChildren(this.fleet.deps.procRoot ?? PROC_ROOT, panePid);
    if (running !== null) {
      throw new FleetError(
        `task ${task.id} not rerun: the shell (pid ${panePid}) in pane ${task.paneId} still runs ${running}; ` +
          `once it has no child left, a rerun replaces the shell with ${command}`,
      );
    }
  }

  async kill(task: Task): Promise<void> {
    if (task.endedAt !== null) return;
    const { tasks, deps } = this.fleet;
    if (task.followed && underShell(task, tasks.panePid(task))) await stopFollowed(deps.procRoot ?? PROC_ROOT, [task.followed]);
    else await stopProcessGroups(deps.tmux, [task.paneId]);
    await this.reconcile();
  }

  async remove(task: Task): Promise<void> {
    await this.kill(task);
    if (task.windowId !== '') await this.fleet.deps.tmux.killWindow(task.windowId).catch(() => undefined);
    this.fleet.forget(task, 'removed');
  }

  update(task: Task, fields: Partial<Pick<Task, 'name' | 'group' | 'tagged'>>): LsRecord {
    Object.assign(task, fields);
    void this.fleet.rename(task);
    this.fleet.changed();
    return this.fleet.view(task);
  }

  paneDied(paneId: string): Promise<void> {
    return paneDied(this.fleet, paneId);
  }

  reconcile(): Promise<void> {
    return reconcile(this.fleet);
  }

  /** Panes of the fleet's tmux server running agents someone started by hand (fleetcom adopt). */
  adoptable(caller: string | null): Promise<ReplyOf<'adoptable'>> {
    return listAgentPanes(this.fleet, caller);
  }

  /** Makes them tasks, their processes untouched; `session`: only that tmux session's (up --adopt). */
  adopt(targets: string[] | null, caller: string | null, session?: string): Promise<ReplyOf<'adopt'>> {
    return adoptAgentPanes(this.fleet, { targets, caller, session });
  }

  /** The fleet as recipe entries, agents as their resume commands (precedence 1-4). */
  recipe(): RecipeTask[] {
    return recipeOf(this.fleet.tasks.values(), this.fleet.deps.now());
  }
}
