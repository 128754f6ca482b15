// The supervisor: one queue that every change of the fleet runs on, so a pane death cannot
// interleave with a rerun. tmux owns the tasks' terminals; the supervisor only decides, asks
// tmux through FleetTmux, and persists what it learned. What each request does is in
// task-operations.ts, catching up with tmux in reconcile.ts, the shared state in fleet-state.ts.
import type { WorktreeStatus } from '../../worktrees/status.js';
import { isBeside, type QueueRequest, type RecipeTask, type ReplyOf, type ReplyTo, type Request } from '../../control/protocol.js';
import { Beside } from './beside.js';
import { FleetError } from '../../errors.js';
import type { AttentionState, RunEvidence } from '../../harness/index.js';
import { FleetState, type SupervisorDeps } from './fleet-state.js';
import type { Ending, WatchTarget } from '../exits/process-watch.js';
import { processEnded, reconcile } from '../exits/reconcile.js';
import { titleChanged, windowsClosed } from '../exits/tmux-events.js';
import type { Streamed } from '../../control/stream.js';
import { viewedPane, watchStream } from './pane-view.js';
import { dispatch, readNow, wantsStateOnly } from './requests.js';
import { recipeOf } from '../ids/resolution.js';
import { stopFollowed, stopProcessGroups } from '../lifecycle/stop.js';
import { PROC_ROOT } from '../../ownership/index.js';
import { underShell } from '../agent-panes/followed.js';
import { TaskOperations } from './task-operations.js';
import { evidenceOf, type Task } from './task.js';

/** How many times, and how often, an ended process's pane is read again until tmux shows it over. */
const ENDED_RETRIES = 10;
const ENDED_RETRY_MS = 20;

export interface Adopted {
  tasks: readonly Task[];
  nextId: number;
  /** The capture namespaces the adopted tasks may still write into (dead supervisors'). */
  namespaces: readonly string[];
}

export class Supervisor {
  private readonly fleet: FleetState;
  /** Reached only from inside the queue. */
  private readonly operations: TaskOperations;
  /** send, wait, output, events: answered beside the queue (beside.ts). */
  private readonly beside: Beside;
  private queue: Promise<unknown> = Promise.resolve();
  /** Work on the queue, running or waiting: reads are answered beside it while it is not 0. */
  private queued = 0;

  constructor(deps: SupervisorDeps) {
    this.fleet = new FleetState(deps);
    this.operations = new TaskOperations(this.fleet);
    this.beside = new Beside(this.fleet, (work) => this.enqueue(work));
  }

  /**
   * A request's answer. Changes go on the queue, one after the other; a read (ls, next,
   * status, save) goes there too when the fleet is idle, so that it reconciles first, but
   * while a change is in flight it is answered at once from the state as it is (requests.ts
   * says why that is sound), instead of waiting for a load or `down` of hundreds of tasks.
   * `fromState`: answer a read so even when the queue is empty (a fleet going down); an `ls`
   * asking `fromState` itself (the Tab's) is answered so too.
   */
  handle<R extends Request>(request: R, fromState = false): Promise<ReplyTo<R>> {
    // `wait` and `events` resolve to a Streamed, which the control server runs.
    if (isBeside(request)) return this.beside.answer(request) as Promise<ReplyTo<R>>;
    const change = request as R & QueueRequest;
    const read = this.queued > 0 || fromState || wantsStateOnly(change) ? readNow(this.operations, change) : null;
    return read ? read() : this.enqueue(() => dispatch(this.operations, change));
  }

  /** Ends every wait and event stream with this reason (`down`: the fleet goes down; else its supervisor stops). */
  endStreams(why: string, down: boolean): void {
    this.beside.close(why, down);
  }

  /** The periodic and exit-woken check: reconcile only, without resolving every task's id as `ls` does. */
  tick(): Promise<void> {
    return this.enqueue(() => reconcile(this.fleet));
  }

  /**
   * The process watch saw a task's process end: its exit is recorded from one read of its pane
   * (reconcile.ts). A pane not over yet is read again every ENDED_RETRY_MS a few times, then
   * left to the hook or the periodic reconciliation; a pane that is gone is reconciled at once.
   */
  processEnded(taskId: number, ending: Ending, attempt = 0): Promise<void> {
    return this.enqueue(async () => {
      const task = this.fleet.tasks.get(taskId);
      if (!task || task.endedAt !== null || task.paneId === '' || !this.fleet.tasks.knowsRun(task)) return;
      const outcome = await processEnded(this.fleet, task, ending, attempt);
      if (outcome === 'gone') await reconcile(this.fleet);
      else if (outcome === 'not over' && attempt < ENDED_RETRIES) {
        setTimeout(() => void this.processEnded(taskId, ending, attempt + 1).catch(() => undefined), ENDED_RETRY_MS).unref();
      }
    });
  }

  /** tmux reported a pane's new title: a task's attention may follow it (codex, gemini). */
  titleChanged(paneId: string, title: string): void {
    // Checked before queueing: most titles are not a task's (shells, the supervisor's pane).
    if (this.fleet.tasks.byPane(paneId) === undefined) return;
    void this.enqueue(() => titleChanged(this.fleet, paneId, title)).catch(() => undefined);
  }

  /** tmux closed (or unlinked) these windows: a task whose pane is gone was closed outside fleetcom. */
  windowsClosed(windowIds: ReadonlySet<string>): void {
    if (!this.fleet.tasks.values().some((task) => windowIds.has(task.windowId))) return;
    void this.enqueue(() => windowsClosed(this.fleet, windowIds)).catch(() => undefined);
  }

  /**
   * A task's pane as a stream for a viewer (`watch`): found now, streamed outside the queue for
   * as long as the viewer stays.
   */
  watch(ref: string): Streamed<ReplyOf<'watch'>> {
    const panes = this.fleet.deps.panes;
    if (panes === undefined) throw new FleetError('this supervisor streams no pane');
    return watchStream(panes, viewedPane(this.fleet.tasks.lookup(ref), ref));
  }

  /** Whole reconciliations run since the start. */
  get reconciliations(): number {
    return this.fleet.reconciliations;
  }

  /** Takes over the tasks of a supervisor that died (before any request is served). */
  adopt(adopted: Adopted): Promise<void> {
    return this.enqueue(async () => {
      this.fleet.tasks.adopt(adopted.tasks, adopted.nextId);
      for (const dir of adopted.namespaces) this.fleet.namespaces.adopt(dir);
    });
  }

  /** Adopts the panes of a tmux session running agents started by hand (up --adopt). */
  adoptPanes(session: string): Promise<ReplyOf<'adopt'>> {
    return this.enqueue(() => this.operations.adopt(null, null, session));
  }

  /** A reconciliation (panes that died meanwhile get scraped) and state.json written. */
  settle(): Promise<void> {
    return this.enqueue(async () => {
      await reconcile(this.fleet);
      this.fleet.persist();
    });
  }

  /** state.json written again (the runtime guard, after the runtime dir was removed). */
  saveState(): Promise<void> {
    return this.enqueue(async () => this.fleet.persist());
  }

  /** A new captured id for a task's current run (from the capture watcher). */
  captured(taskId: number, run: number, id: string): Promise<void> {
    return this.enqueue(async () => {
      const task = this.fleet.tasks.get(taskId);
      if (!task || task.run !== run || task.captured === id) return;
      if (task.captured) task.everHeld = [...new Set([...task.everHeld, task.captured])];
      task.captured = id;
      this.fleet.deps.log(`task ${taskId} captured conversation ${id}`);
      this.fleet.changed();
    });
  }

  /** A task's signal file changed (from the capture watcher). */
  signals(taskId: number, run: number): Promise<void> {
    return this.enqueue(async () => {
      const task = this.fleet.tasks.get(taskId);
      if (task && task.run === run) await this.fleet.applyAttention(this.fleet.attention.refresh(task));
    });
  }

  /** Every task's signal file read from its start without notifying: after an adoption, that history is not news. */
  replayAttention(): Promise<void> {
    return this.enqueue(async () => {
      const { tasks, attention } = this.fleet;
      for (const task of tasks.values()) await this.fleet.applyAttention(attention.refresh(task, { quiet: true }));
    });
  }

  /**
   * Stops every task and closes their windows (the `down` path), after the requests in flight.
   * Throws, closing nothing, when a task outlives SIGKILL: `down` then stops half way and can be retried.
   */
  stopAll(): Promise<void> {
    return this.enqueue(async () => {
      const { tmux, procRoot } = this.fleet.deps;
      const tasks = this.fleet.tasks.values();
      const running = tasks.filter((t) => t.endedAt === null && t.paneId !== '');
      // An adopted agent under a shell is stopped itself; its shell goes with its window.
      const followed = running.filter((t) => t.followed && underShell(t, this.fleet.tasks.panePid(t)));
      const [left, agentsLeft] = await Promise.all([
        stopProcessGroups(tmux, running.filter((t) => !followed.includes(t)).map((t) => t.paneId)),
        stopFollowed(procRoot ?? PROC_ROOT, followed.map((t) => t.followed!)),
      ]);
      if (left.length > 0 || agentsLeft.length > 0) {
        const ids = tasks.filter((t) => left.includes(t.paneId) || (t.followed && agentsLeft.includes(t.followed.pid))).map((t) => t.id);
        throw new FleetError(`task(s) ${ids.join(', ')} still running after SIGKILL`);
      }
      await tmux.killWindows(tasks.map((task) => task.windowId).filter((id) => id !== '')).catch(() => undefined);
    });
  }


  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    this.queued += 1;
    const next = this.queue.then(work).finally(() => (this.queued -= 1));
    this.queue = next.catch(() => undefined);
    return next;
  }

  // Views, read between queued changes; nothing here changes the fleet.

  /** The tasks as they are now, for views (the dashboard); not to be changed. */
  taskList(): readonly Task[] {
    return this.fleet.tasks.values();
  }

  get size(): number {
    return this.fleet.tasks.size;
  }

  /** Reads the worktree tasks' git state again (off the queue: it only reads); true when a status changed. */
  refreshWorktrees(): Promise<boolean> {
    return this.fleet.worktrees.refresh(this.fleet.tasks.values().flatMap((task) => (task.worktree ? [task.worktree] : [])));
  }

  /** The worktree's state as last read (the dashboard's column). */
  worktreeStatus(path: string): WorktreeStatus | null {
    return this.fleet.worktrees.get(path);
  }

  /** The task's attention now (for views). */
  attentionOf(task: Task): AttentionState {
    return this.fleet.attention.of(task);
  }

  /** What the capture watcher needs to check a capture of the task's current run. */
  runEvidence(taskId: number): { run: number; evidence: RunEvidence } | null {
    const task = this.fleet.tasks.get(taskId);
    const evidence = task && evidenceOf(task);
    return task && evidence ? { run: task.run, evidence } : null;
  }

  /** This supervisor's capture namespace (once installed) and those of the supervisors it adopted from. */
  captureNamespaces(): string[] {
    return this.fleet.namespaces.all();
  }

  /**
   * Adopted capture namespaces no task writes into any more, forgotten here; the caller removes
   * them. Not queued: the capture watchers ask from the fleet's change listener, which runs
   * inside a queued change.
   */
  releaseIdleNamespaces(): string[] {
    return this.fleet.namespaces.releaseIdle(this.fleet.tasks.values());
  }

  /**
   * The pane pid and terminal of each running task, for the process watch (process-watch.ts):
   * a rerun's new process is included as soon as tmux has started it.
   */
  runningPids(): Map<number, WatchTarget> {
    return this.fleet.tasks.runningPids();
  }

  /** The fleet as recipe entries, agents as their resume commands (precedence 1-4). */
  recipe(): RecipeTask[] {
    return recipeOf(this.fleet.tasks.values(), this.fleet.deps.now());
  }
}
