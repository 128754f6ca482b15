// What a task's window shows besides its pane: the name (state glyph and label), the attention
// option status lines read, and the record an adopter reads back (window-spec.ts). Each is set
// only when it changed: a tmux call per window per tick would cost more than the tick.
import type { Attention } from '../../harness/index.js';
import type { Launch } from './launch.js';
import type { Task } from '../supervisor/task.js';
import { taskWindow, taskWindowMarks } from './task-window.js';
import type { FleetTmux, TakeOverSpec, WindowSpec } from '../tmux/tmux-port.js';
import { WindowNames } from './window-names.js';
import { SPEC_OPTION, WindowSpecs } from './window-spec.js';

/** The window option holding a task's attention for status-line formats; unset when it has none. */
export const ATTENTION_OPTION = '@fleetcom-attention';

export class WindowMarks {
  private readonly names: WindowNames;
  private readonly specs = new WindowSpecs();

  constructor(
    private readonly deps: {
      tmux: FleetTmux;
      controlSocket: string;
      /** The tmux command each task window runs when its pane dies. */
      paneDiedHook: string;
      now: () => number;
      idleMs?: number;
    },
  ) {
    this.names = new WindowNames(deps.idleMs);
  }

  /** A new window for the task, its options, hook and record made in the same tmux call. */
  window(task: Task, launch: Launch, now: number): WindowSpec {
    const { controlSocket: socket, paneDiedHook } = this.deps;
    return taskWindow(task, launch, { socket, paneDiedHook, now, spec: this.specs.inline(task) });
  }

  /**
   * What a running pane's window gets when it becomes the task's (fleetcom adopt): the marks of
   * a new task's window, its record among them, and the name now recorded as given.
   */
  takeOver(task: Task, breakOut: { from: string } | null, now: number): TakeOverSpec {
    const { controlSocket: socket, paneDiedHook } = this.deps;
    const marks = taskWindowMarks(task, { socket, paneDiedHook, now, spec: this.specs.current(task) });
    this.names.changed(task, now, null);
    return { paneId: task.paneId, breakOut, ...marks };
  }

  /**
   * The window says which run and command it holds before that run starts, so an adopter after
   * a crash in between reads the truth; both go in one tmux call unless they exceed one.
   */
  async announceRun(task: Task): Promise<void> {
    const spec = this.specs.current(task);
    const run: [string, string, string] = [task.windowId, '@fleetcom-run', String(task.run)];
    await this.deps.tmux.setWindowOptions(spec ? [run, [task.windowId, SPEC_OPTION, spec]] : [run]);
  }

  /** The window's new name, now recorded as given, or null when it is the same. */
  nameChange(task: Task, attention: Attention | null, now = this.deps.now()): string | null {
    return this.names.changed(task, now, attention);
  }

  async rename(task: Task, attention: Attention | null): Promise<void> {
    if (task.windowId === '') return;
    const name = this.nameChange(task, attention);
    if (name !== null) await this.deps.tmux.renameWindow(task.windowId, name).catch(() => undefined);
  }

  async showAttention(task: Task, attention: Attention | null): Promise<void> {
    const option = attention === null
      ? this.deps.tmux.unsetWindowOption(task.windowId, ATTENTION_OPTION)
      : this.deps.tmux.setWindowOption(task.windowId, ATTENTION_OPTION, attention);
    await option.catch(() => undefined);
  }

  /** Sets the records of the windows whose task changed, all in one tmux call. */
  syncRecords(tasks: Iterable<Task>): void {
    const changes = this.specs.changes(tasks);
    if (changes.length > 0) void this.deps.tmux.setWindowOptions(changes).catch(() => undefined);
  }

  /** The task left its window (removed, or the window was closed). */
  forget(taskId: number): void {
    this.names.forget(taskId);
    this.specs.forget(taskId);
  }
}
