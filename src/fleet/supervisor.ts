// The supervisor's task table and every operation on it. tmux owns the tasks' terminals;
// this class only decides, asks tmux through FleetTmux, and persists what it learned.
import type { RecipeTask, ReplyTo, Request } from '../control/protocol.js';
import { FleetError } from '../errors.js';
import { nextNeedingYou, scrapeExit, type AttentionState, type Resolved, type RunEvidence } from '../harness/index.js';
import { PROC_ROOT } from '../ownership/index.js';
import { AttentionBoard, type AttentionChange } from './attention.js';
import { CaptureNamespaces } from './capture-namespaces.js';
import { planLaunch, type Launch, type LaunchInputs } from './launch.js';
import { fleetHolders, unheldSpecs } from './ownership-guard.js';
import { observeParkedJobs } from './parked-jobs.js';
import { dispatch } from './requests.js';
import { planRerun, rerunFields } from './rerun-plan.js';
import { currentIds, recipeOf } from './resolution.js';
import { planSpawns, type Spec } from './spawn-plan.js';
import { recordOf, writeState, type PersistedState } from './state-file.js';
import { stopProcessGroups } from './stop.js';
import { taskWindow } from './task-window.js';
import { evidenceOf, type LsRecord, type Task, type TaskRecord } from './task.js';
import { isOver, type FleetTmux, type PaneInfo } from './tmux-port.js';
import { lsRecord } from './views.js';
import { WindowNames } from './window-names.js';
import { SPEC_OPTION, WindowSpecs } from './window-spec.js';

export interface SupervisorDeps {
  tmux: FleetTmux;
  statePath: string;
  controlSocket: string;
  /** The tmux command each task window runs when its pane dies. */
  paneDiedHook: string;
  tmuxSession: { id: string; name: string };
  /** The capture namespace of this supervisor, installed on first use; throws on failure. */
  installNamespace: () => string;
  capturePath: (namespace: string, id: number, run: number) => string;
  now: () => number;
  newId: () => string;
  log: (line: string) => void;
  onChange: () => void;
  /** Output silence after which a running task is idle (default IDLE_AFTER_MS). */
  idleMs?: number;
  /** A task's attention changed (not persisted: it is rebuilt from the signal files). */
  onAttention?: (change: AttentionChange) => void;
  /** The proc file system's root for the parked-job check (default /proc). */
  procRoot?: string;
}

/** The window option holding a task's attention for status-line formats; unset when it has none. */
export const ATTENTION_OPTION = '@fleetcom-attention';

export interface Adopted {
  tasks: readonly Task[];
  nextId: number;
  /** The dead supervisor's capture namespace, when it still exists. */
  namespace: string | null;
}

/**
 * Every mutation runs on one queue, so a pane death cannot interleave with a rerun. The
 * operations called by `dispatch` (requests.ts) assume they already run on it.
 */
export class Supervisor {
  private readonly tasks = new Map<number, Task>();
  private nextId = 1;
  private readonly namespaces: CaptureNamespaces;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly names: WindowNames;
  private readonly attention: AttentionBoard;
  /** Each task's pane pid as tmux last reported it, with the run it belongs to. */
  private readonly pids = new Map<number, { pid: number; run: number }>();
  private readonly specs = new WindowSpecs();

  constructor(private readonly deps: SupervisorDeps) {
    this.names = new WindowNames(deps.idleMs);
    this.attention = new AttentionBoard({ now: deps.now, log: deps.log });
    this.namespaces = new CaptureNamespaces(deps.installNamespace, deps.log);
  }

  handle<R extends Request>(request: R): Promise<ReplyTo<R>> {
    return this.enqueue(() => dispatch(this, request));
  }

  /** The periodic and exit-woken check: reconcile only, without resolving every task's id as `ls` does. */
  tick(): Promise<void> {
    return this.enqueue(() => this.reconcile());
  }

  /** Takes over the tasks of a supervisor that died (before any request is served). */
  adopt(adopted: Adopted): Promise<void> {
    return this.enqueue(async () => {
      for (const task of adopted.tasks) this.tasks.set(task.id, task);
      this.nextId = Math.max(this.nextId, adopted.nextId);
      if (adopted.namespace) this.namespaces.adopt(adopted.namespace);
    });
  }

  /** A reconciliation (panes that died meanwhile get scraped) and state.json written. */
  settle(): Promise<void> {
    return this.enqueue(async () => {
      await this.reconcile();
      this.persist();
    });
  }

  /** A new captured id for a task's current run (from the capture watcher). */
  captured(taskId: number, run: number, id: string): Promise<void> {
    return this.enqueue(async () => {
      const task = this.tasks.get(taskId);
      if (!task || task.run !== run || task.captured === id) return;
      if (task.captured) task.everHeld = [...new Set([...task.everHeld, task.captured])];
      task.captured = id;
      this.deps.log(`task ${taskId} captured conversation ${id}`);
      this.changed();
    });
  }

  /** A task's signal file changed (from the capture watcher). */
  signals(taskId: number, run: number): Promise<void> {
    return this.enqueue(async () => {
      const task = this.tasks.get(taskId);
      if (task && task.run === run) await this.applyAttention(this.attention.refresh(task));
    });
  }

  /** Every task's signal file read from its start without notifying: after an adoption, that history is not news. */
  replayAttention(): Promise<void> {
    return this.enqueue(async () => {
      for (const task of this.tasks.values()) await this.applyAttention(this.attention.refresh(task, { quiet: true }));
    });
  }

  /** The task's attention now (for views). */
  attentionOf(task: Task): AttentionState {
    return this.attention.of(task);
  }

  /**
   * Stops every task and closes their windows (the `down` path), after the requests in flight.
   * Throws, closing nothing, when a task outlives SIGKILL: `down` then stops half way and can be retried.
   */
  stopAll(): Promise<void> {
    return this.enqueue(async () => {
      const tasks = [...this.tasks.values()];
      const left = await stopProcessGroups(this.deps.tmux, tasks.filter((t) => t.endedAt === null && t.paneId !== '').map((t) => t.paneId));
      if (left.length > 0) {
        const ids = tasks.filter((t) => left.includes(t.paneId)).map((t) => t.id);
        throw new FleetError(`task(s) ${ids.join(', ')} still running after SIGKILL`);
      }
      for (const task of tasks) if (task.windowId !== '') await this.deps.tmux.killWindow(task.windowId).catch(() => undefined);
    });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The tasks as they are now, for views (the dashboard); not to be changed. */
  taskList(): readonly Task[] {
    return [...this.tasks.values()];
  }

  get size(): number {
    return this.tasks.size;
  }

  /** What the capture watcher needs to check a capture of the task's current run. */
  runEvidence(taskId: number): { run: number; evidence: RunEvidence } | null {
    const task = this.tasks.get(taskId);
    const evidence = task && evidenceOf(task);
    return task && evidence ? { run: task.run, evidence } : null;
  }

  /** This supervisor's capture namespace (once installed) and those of the supervisors it adopted from. */
  captureNamespaces(): string[] {
    return this.namespaces.all();
  }

  /** Adopted namespaces no task writes into any more, forgotten here; the caller removes them. */
  releaseIdleNamespaces(): string[] {
    return this.namespaces.releaseIdle(this.tasks.values());
  }

  status(): { pid: number; tmuxSessionId: string; tmuxSessionName: string; tasks: number } {
    return { pid: process.pid, tmuxSessionId: this.deps.tmuxSession.id, tmuxSessionName: this.deps.tmuxSession.name, tasks: this.tasks.size };
  }

  list(): LsRecord[] {
    const now = this.deps.now();
    const ids = this.currentIds(now);
    return [...this.tasks.values()].map((task) => lsRecord(task, now, ids.get(task.id) ?? null, this.attention.of(task), this.deps.idleMs));
  }

  find(ref: string): Task {
    const task = this.lookup(ref);
    if (!task) throw new FleetError(`no task ${ref} in this fleet (see fleetcom ls)`);
    return task;
  }

  private lookup(ref: string): Task | undefined {
    return ref.startsWith('%')
      ? [...this.tasks.values()].find((t) => t.paneId === ref)
      : ref.startsWith('@')
        ? [...this.tasks.values()].find((t) => t.windowId === ref)
        : this.tasks.get(Number(ref));
  }

  /** Shows the next task that needs the user (after the one at `from`) in `client`; its id, or null. */
  async next(from: string | null, client: string | null): Promise<{ id: number } | null> {
    const current = from === null ? null : (this.lookup(from)?.id ?? null);
    const attending = [...this.tasks.values()].map((task) => ({ task, id: task.id, ...this.attention.of(task) }));
    const target = nextNeedingYou(attending, current);
    if (target === null) return null;
    await this.deps.tmux.showWindow(target.task.windowId, client);
    return { id: target.id };
  }

  async spawn(spec: Spec): Promise<Task> {
    const [result] = await this.spawnAll([spec], await this.launchInputs());
    if (result === undefined || result instanceof Error) throw result ?? new FleetError('no window was made');
    return result;
  }

  /**
   * Plans every spec (ids in order), then makes their windows with as few tmux calls as fit
   * (npm run bench: a tmux client per window made a load of 50 take twice tmux's own time).
   * One result per spec: its task, or why it was not started.
   */
  private async spawnAll(specs: readonly Spec[], inputs: LaunchInputs): Promise<Array<Task | Error>> {
    const now = this.deps.now();
    const { planned, failed } = planSpawns(specs, this.nextId, inputs, { now, window: (draft, launch) => this.windowOf(draft, launch, now) });
    const results: Array<Task | Error> = specs.map((_, index) => failed.get(index) ?? new FleetError('not started'));
    if (planned.length === 0) return results;
    const made = await this.deps.tmux.newWindows(planned.map((p) => p.window));
    for (const [k, { index, draft, pinned }] of planned.entries()) {
      const window = made[k];
      if (window === undefined || window instanceof Error) {
        results[index] = window ?? new FleetError('tmux made no window');
        continue;
      }
      const task = { ...draft, windowId: window.windowId, paneId: window.paneId };
      this.nextId = task.id + 1;
      this.tasks.set(task.id, task);
      this.names.changed(task, now);
      if (window.panePid) this.pids.set(task.id, { pid: window.panePid, run: task.run });
      this.deps.log(`task ${task.id} started: ${task.command}${pinned ? ` (pinned ${pinned})` : ''}`);
      results[index] = task;
    }
    if (results.some((r) => !(r instanceof Error))) this.changed();
    return results;
  }

  async rerun(task: Task): Promise<Task> {
    const now = this.deps.now();
    const rerun = planRerun(task, fleetHolders(this.tasks.values(), this.currentIds(now)), now);
    const { run, command } = rerun;
    const launch = planLaunch({ id: task.id, run, command, cwd: task.cwd, env: task.env }, await this.launchInputs());
    const oldCapture = task.captureFile;
    const hadAttention = this.attention.of(task).attention !== null;
    const next = rerunFields(task, rerun, launch, now);
    if (task.paneId === '') {
      // Its window was closed outside fleetcom: the task comes back in a new window.
      const draft = { ...task, ...next };
      const [made] = await this.deps.tmux.newWindows([this.windowOf(draft, launch, now)]);
      if (made === undefined || made instanceof Error) throw made ?? new FleetError('tmux made no window');
      Object.assign(task, { windowId: made.windowId, paneId: made.paneId });
    } else {
      // The window says which run and command it holds before the new run starts, so a
      // supervisor dying in between leaves an adopter the truth.
      const spec = this.specs.inline({ ...task, ...next });
      await this.deps.tmux.setWindowOptions([[task.windowId, '@fleetcom-run', String(run)], ...(spec ? [[task.windowId, SPEC_OPTION, spec] as [string, string, string]] : [])]);
      await this.deps.tmux.respawnPane(task.paneId, { cwd: task.cwd, env: launch.windowEnv, argv: launch.argv, path: launch.path });
    }
    Object.assign(task, next);
    // Resuming an ended job's conversation makes it the pane's own again.
    if (task.parkedJob && !task.parkedJob.alive && rerun.parked) task.parkedJob = null;
    this.namespaces.dropCapture(oldCapture);
    if (hadAttention) await this.deps.tmux.unsetWindowOption(task.windowId, ATTENTION_OPTION).catch(() => undefined);
    this.deps.log(`task ${task.id} rerun ${run}: ${command}`);
    await this.refreshName(task);
    this.changed();
    return task;
  }

  async kill(task: Task): Promise<void> {
    if (task.endedAt !== null) return;
    await stopProcessGroups(this.deps.tmux, [task.paneId]);
    await this.reconcile();
  }

  async remove(task: Task): Promise<void> {
    await this.kill(task);
    if (task.windowId !== '') await this.deps.tmux.killWindow(task.windowId).catch(() => undefined);
    this.forget(task, 'removed');
  }

  async paneDied(paneId: string): Promise<void> {
    const task = [...this.tasks.values()].find((t) => t.paneId === paneId);
    if (!task || task.endedAt !== null) return;
    const pane = (await this.deps.tmux.listPanes()).find((p) => p.paneId === paneId);
    if (pane && isOver(pane)) await this.recordExit(task, pane);
  }

  /** Catches what hooks missed: deaths, windows closed outside fleetcom, idleness. */
  async reconcile(): Promise<void> {
    const panes = new Map((await this.deps.tmux.listPanes()).map((p) => [p.paneId, p]));
    const renames: Array<[string, string]> = [];
    for (const task of [...this.tasks.values()]) {
      if (task.paneId === '') continue; // its window is gone; kept until rm
      const pane = panes.get(task.paneId);
      if (!pane) {
        this.windowGone(task);
        continue;
      }
      if (pane.activity > task.lastOutputAt && task.endedAt === null) task.lastOutputAt = pane.activity;
      if (!pane.dead && pane.pid !== null) this.pids.set(task.id, { pid: pane.pid, run: task.run });
      if (isOver(pane) && task.endedAt === null) await this.recordExit(task, pane);
      else {
        // A backstop for a missed file event, and codex's output heuristic; the rename below shows it.
        await this.applyAttention(this.attention.refresh(task) ?? this.attention.outputSeen(task), { rename: false });
        const name = this.names.changed(task, this.deps.now(), this.attention.of(task).attention);
        if (name !== null) renames.push([task.windowId, name]);
      }
    }
    // One tmux call for all the glyphs that changed (50 tasks going idle together cost 50
    // clients: a 5 % CPU spike of the supervisor, npm run bench).
    if (renames.length > 0) await this.deps.tmux.renameWindows(renames).catch(() => undefined);
    const claudes = [...this.tasks.values()].filter((t) => t.harness === 'claude' || t.parkedJob);
    const withPanes = claudes.map((task) => ({ task, panePid: panes.get(task.paneId)?.pid ?? null }));
    if (withPanes.length > 0 && observeParkedJobs(withPanes, this.deps.procRoot ?? PROC_ROOT)) this.changed();
  }

  /**
   * The pane pid of each running task, for the process watch (process-watch.ts): a rerun's
   * new process is included once a reconciliation has read its pid.
   */
  runningPids(): Map<number, number> {
    const running = new Map<number, number>();
    for (const [id, { pid, run }] of this.pids) {
      const task = this.tasks.get(id);
      if (!task) this.pids.delete(id);
      else if (task.endedAt === null && task.run === run) running.set(id, pid);
    }
    return running;
  }

  async recordExit(task: Task, pane: PaneInfo): Promise<void> {
    const hadAttention = this.attention.of(task).attention !== null;
    const text = await this.deps.tmux.retainedText(task.paneId).catch(() => '');
    task.exitHint = task.harness ? scrapeExit(task.harness, text) : null;
    task.exitStatus = pane.deadStatus;
    task.killed = pane.deadSignal !== null;
    task.endedAt = this.deps.now();
    const how = task.killed ? `was killed by signal ${pane.deadSignal}` : task.exitStatus === null ? 'exited (status unknown)' : `exited with status ${task.exitStatus}`;
    this.deps.log(`task ${task.id} ${how}${task.exitHint ? `; exit hint ${task.exitHint}` : ''}`);
    if (hadAttention) await this.deps.tmux.unsetWindowOption(task.windowId, ATTENTION_OPTION).catch(() => undefined);
    await this.refreshName(task);
    this.changed();
  }

  update(task: Task, fields: Partial<Pick<Task, 'name' | 'group' | 'tagged'>>): LsRecord {
    Object.assign(task, fields);
    void this.refreshName(task);
    this.changed();
    const now = this.deps.now();
    return lsRecord(task, now, this.currentIds(now).get(task.id) ?? null, this.attention.of(task), this.deps.idleMs);
  }

  /** The fleet as recipe entries, agents as their resume commands (precedence 1-4). */
  recipe(): RecipeTask[] {
    return recipeOf([...this.tasks.values()], this.deps.now());
  }

  private currentIds(now: number): Map<number, Resolved | null> {
    return currentIds(this.tasks.values(), now);
  }

  async load(entries: RecipeTask[], env: Record<string, string>): Promise<{ ids: number[]; errors: string[]; skipped: string[] }> {
    const ids: number[] = [];
    const errors: string[] = [];
    // An entry's agent homes go on top of the caller's environment (the protocol admits no other variables).
    const specs = entries.map((entry) => ({ command: entry.cmd, cwd: entry.cwd, env: { ...env, ...entry.env }, name: entry.name, group: entry.group }));
    const { start, skipped } = unheldSpecs(specs, fleetHolders(this.tasks.values(), this.currentIds(this.deps.now())));
    const results = await this.spawnAll(start, await this.launchInputs());
    for (const [i, result] of results.entries()) {
      if (result instanceof Error) errors.push(`${start[i]?.cwd}: ${start[i]?.command}: ${result.message}`);
      else ids.push(result.id);
    }
    return { ids, errors, skipped };
  }

  state(): PersistedState {
    return {
      version: 1,
      tmuxSession: this.deps.tmuxSession.id,
      namespace: this.namespaces.current,
      nextId: this.nextId,
      tasks: [...this.tasks.values()].map((t): TaskRecord => recordOf(t)),
    };
  }

  persist(): void {
    writeState(this.deps.statePath, this.state());
  }

  private forget(task: Task, why: string): void {
    this.tasks.delete(task.id);
    this.names.forget(task.id);
    this.attention.forget(task.id);
    this.specs.forget(task.id);
    this.namespaces.dropCapture(task.captureFile);
    this.deps.log(`task ${task.id} ${why}`);
    this.changed();
  }

  /** Shows a task's new attention: the window option status lines read, the glyph, then the listener. */
  private async applyAttention(change: AttentionChange | null, opts: { rename?: boolean } = {}): Promise<void> {
    if (change === null) return;
    const { task, state } = change;
    this.deps.log(`task ${task.id} ${state.attention ?? 'no longer signals'}${state.message ? `: ${state.message}` : ''}`);
    const option = state.attention === null
      ? this.deps.tmux.unsetWindowOption(task.windowId, ATTENTION_OPTION)
      : this.deps.tmux.setWindowOption(task.windowId, ATTENTION_OPTION, state.attention);
    await option.catch(() => undefined);
    if (opts.rename !== false) await this.refreshName(task);
    this.deps.onAttention?.(change);
  }

  private changed(): void {
    try {
      this.persist();
    } catch (error) {
      this.deps.log(`could not write ${this.deps.statePath}: ${(error as Error).message}`);
    }
    const specs = this.specs.changes(this.tasks.values());
    if (specs.length > 0) void this.deps.tmux.setWindowOptions(specs).catch(() => undefined);
    this.deps.onChange();
  }

  /**
   * The task's window was closed outside fleetcom (it is on none of the server's sessions): it
   * stays in the fleet, exited with an unknown status, so its conversation can still be
   * resumed (rerun makes a new window) or saved, until the user runs `rm`.
   */
  private windowGone(task: Task): void {
    const id = this.currentIds(this.deps.now()).get(task.id)?.id ?? null;
    if (task.endedAt === null) Object.assign(task, { endedAt: this.deps.now(), exitStatus: null, killed: false });
    Object.assign(task, { windowId: '', paneId: '' });
    this.names.forget(task.id);
    this.specs.forget(task.id);
    this.deps.log(
      `task ${task.id}: its window was closed outside fleetcom; kept as exited${id ? ` with conversation ${id}` : ''} ` +
        `(fleetcom rerun ${task.id} brings it back, fleetcom rm ${task.id} forgets it)`,
    );
    this.changed();
  }

  private windowOf(task: Task, launch: Launch, now: number) {
    return taskWindow(task, launch, { socket: this.deps.controlSocket, paneDiedHook: this.deps.paneDiedHook, now, spec: this.specs.inline(task) });
  }

  private async refreshName(task: Task): Promise<void> {
    if (task.windowId === '') return;
    const name = this.names.changed(task, this.deps.now(), this.attention.of(task).attention);
    if (name !== null) await this.deps.tmux.renameWindow(task.windowId, name).catch(() => undefined);
  }

  private async launchInputs(): Promise<LaunchInputs> {
    return {
      namespace: () => this.namespaces.ensure(),
      capturePath: this.deps.capturePath,
      globalEnv: await this.deps.tmux.globalEnvironment(),
      newId: this.deps.newId,
    };
  }
}
