// What the supervisor's operations share: the task table, the capture namespaces, attention,
// the windows' marks, and `changed()`, the one way a change is made known (state.json written,
// window records set, listeners told). A Supervisor holds it privately and touches it only on
// its queue, so a pane death cannot interleave with a rerun.
import type { WorktreeRecord } from '../../worktree-record.js';
import type { LsRecord } from '../../control/protocol.js';
import type { FleetHolder } from '../../ownership/index.js';
import type { Resolved } from '../../harness/index.js';
import { AttentionBoard, type AttentionChange } from '../attention/attention.js';
import { CaptureNamespaces } from '../ids/capture-namespaces.js';
import type { LaunchInputs } from '../spawn/launch.js';
import { fleetHolders } from '../rerun/ownership-guard.js';
import { currentIds } from '../ids/resolution.js';
import { writeState, type PersistedState } from '../adoption/state-file.js';
import { recordOf } from './task-record.js';
import { TaskTable } from './task-table.js';
import type { Task } from './task.js';
import type { FleetTmux } from '../tmux/tmux-port.js';
import type { PaneIo, TmuxLinkState } from '../tmux/tmux-link.js';
import { lsRecord } from './views.js';
import { WindowMarks } from '../spawn/window-marks.js';
import { WorktreeStatuses } from './worktree-statuses.js';
import { FleetFeed, seenOf } from '../turns/feed.js';

export interface SupervisorDeps {
  tmux: FleetTmux;
  statePath: string;
  controlSocket: string;
  /** The tmux command each task window runs when its pane dies. */
  paneDiedHook: string;
  /** The fleet's tmux session, and the socket of its tmux server (what a host's attach names). */
  tmuxSession: { id: string; name: string; socket?: string };
  /** The hosts this fleet's `next` and dashboard reach too (what `status` tells a client). */
  hosts?: readonly string[];
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
  /** The largest message `send` types (config `sendMaxBytes`; default 256 KiB). */
  sendMaxBytes?: number;
  /** Panes for a viewer: streamed output and input (`watch`, `input`; fleet/tmux/tmux-link.ts). */
  panes?: PaneIo;
  /** The state of the supervisor's line to tmux (`status` tells it; fleet/tmux/tmux-link.ts). */
  tmuxLink?: () => TmuxLinkState;
  /** The proc file system's root for the parked-job check (default /proc). */
  procRoot?: string;
  /** The record of the worktree fleetcom made at this path, or null (an adopted agent's directory). */
  worktreeAt?: (path: string) => WorktreeRecord | null;
}

export class FleetState {
  readonly tasks = new TaskTable();
  readonly namespaces: CaptureNamespaces;
  readonly attention: AttentionBoard;
  readonly marks: WindowMarks;
  readonly worktrees = new WorktreeStatuses();
  /** The fleet's transitions for `events`, `wait` and `send` (turns/feed.ts). */
  readonly feed: FleetFeed;
  /** Whole reconciliations run so far (`status` says it: what tmux's events spared). */
  reconciliations = 0;

  constructor(readonly deps: SupervisorDeps) {
    this.namespaces = new CaptureNamespaces(deps.installNamespace, deps.log);
    this.attention = new AttentionBoard({ now: deps.now, log: deps.log });
    this.marks = new WindowMarks(deps);
    this.feed = new FleetFeed(() => {
      const ids = this.currentIds();
      return this.tasks.values().map((task) => seenOf(task, ids.get(task.id)?.id ?? null));
    }, deps.now);
  }

  /** Each task's conversation id now (precedence without correlation). */
  currentIds(now = this.deps.now()): Map<number, Resolved | null> {
    return currentIds(this.tasks.values(), now);
  }

  /** The conversations this fleet's running tasks hold. */
  holders(): FleetHolder[] {
    return fleetHolders(this.tasks.values(), this.currentIds());
  }

  /** The task as `ls --json` shows it. */
  view(task: Task, now = this.deps.now(), ids = this.currentIds(now)): LsRecord {
    const worktree = task.worktree ? this.worktrees.get(task.worktree.path) : null;
    return lsRecord(task, now, ids.get(task.id) ?? null, this.attention.of(task), this.deps.idleMs, this.deps.tmuxSession.socket ?? null, worktree, this.attention.turnNow(task));
  }

  state(): PersistedState {
    return {
      version: 1,
      tmuxSession: this.deps.tmuxSession.id,
      namespace: this.namespaces.current,
      nextId: this.tasks.nextId,
      tasks: this.tasks.values().map(recordOf),
    };
  }

  persist(): void {
    writeState(this.deps.statePath, this.state());
  }

  /** A change is made known: state.json (a failed write is said, not thrown), window records, listeners. */
  changed(): void {
    try {
      this.persist();
    } catch (error) {
      this.deps.log(`could not write ${this.deps.statePath}: ${(error as Error).message}`);
    }
    this.marks.syncRecords(this.tasks.values());
    this.feed.changed();
    this.deps.onChange();
  }

  /** The window's name for the task's state and attention now, when it changed. */
  rename(task: Task): Promise<void> {
    return this.marks.rename(task, this.attention.of(task).attention);
  }

  /** Shows a task's new attention: the window option status lines read, the glyph, then the listener. */
  async applyAttention(change: AttentionChange | null, opts: { rename?: boolean } = {}): Promise<void> {
    if (change === null) return;
    const { task, state } = change;
    // Every step, with its turn: a turn that came and went between two reads is logged too.
    const steps = change.transitions.length > 0 ? change.transitions : [{ attention: state.attention, turn: null }];
    const said = steps.map((t) => `${t.attention ?? 'no longer signals'}${t.turn === null ? '' : ` (turn ${t.turn})`}`).join(', then ');
    this.deps.log(`task ${task.id} ${said}${state.message ? `: ${state.message}` : ''}`);
    this.feed.attention(change);
    await this.marks.showAttention(task, state.attention);
    if (opts.rename !== false) await this.rename(task);
    this.deps.onAttention?.(change);
  }

  /** A task leaves the fleet: its records, its attention and its run's capture file go. */
  forget(task: Task, why: string): void {
    this.tasks.delete(task.id);
    this.marks.forget(task.id);
    this.attention.forget(task.id);
    this.namespaces.dropCapture(task.captureFile);
    this.deps.log(`task ${task.id} ${why}`);
    this.changed();
  }

  async launchInputs(): Promise<LaunchInputs> {
    return {
      namespace: () => this.namespaces.ensure(),
      capturePath: this.deps.capturePath,
      globalEnv: await this.deps.tmux.globalEnvironment(),
      newId: this.deps.newId,
    };
  }
}
