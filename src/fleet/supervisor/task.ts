// A task (its record, task-record.ts, plus what lives only in memory) and what can be derived
// from it. A task's environment lives only in memory: state.json never holds environments.
import type { Attention, RunEvidence } from '../../harness/index.js';
import { escapeStyle, windowLabel } from '../../tmux/format.js';
import { glyphFor, type TaskState } from './glyphs.js';
import type { TaskRecord } from './task-record.js';

/** A background job claude parked this task's conversation in (see parked-jobs.ts). */
export interface ParkedJob {
  /** The job's short id (`claude attach <id>`). */
  id: string;
  /** The job's own conversation (a fork: a new id), once its worker was seen. */
  sessionId: string | null;
  /** The conversation the pane's claude held when it parked. */
  from: string | null;
  alive: boolean;
  /** The claude home whose registry names the job. */
  home: string;
  /** The program word the task ran claude with. */
  program: string;
}

export interface Task extends TaskRecord {
  /** The environment it was launched with (the adopter's for an adopted task). */
  env: Record<string, string>;
  lastOutputAt: number;
  /** The last id the capture watcher reported for this run. */
  captured: string | null;
  /** Memory only: a restarted supervisor sees it again while the pane's claude runs. */
  parkedJob?: ParkedJob | null;
}

/** The default of `idleSeconds` (config.json, up --idle-seconds). */
export const IDLE_AFTER_MS = 10_000;

export function taskState(task: Task, now: number, idleMs = IDLE_AFTER_MS): TaskState {
  if (task.endedAt !== null) return 'exited';
  return now - task.lastOutputAt >= idleMs ? 'idle' : 'running';
}

export function evidenceOf(task: TaskRecord): RunEvidence | null {
  if (task.harness === null || task.home === null) return null;
  return {
    harness: task.harness,
    cwd: task.cwd,
    home: task.home,
    captureFile: task.captureFile,
    exitHint: task.exitHint,
    pinnedId: task.pinnedId ?? task.targetId,
    spawnedAt: task.spawnedAt,
    endedAt: task.endedAt,
    tracedId: task.tracedId ?? null,
    capturedBefore: task.captured ?? null,
    handStarted: Boolean(task.followed),
  };
}

/** How an ended task ended, for a verdict or a wait: "task 3 exited with status 1". */
export function endedText(task: Pick<Task, 'id' | 'killed' | 'exitStatus'>): string {
  const how = task.killed ? 'was killed' : task.exitStatus === null ? 'exited' : `exited with status ${task.exitStatus}`;
  return `task ${task.id} ${how}`;
}

export function labelOf(task: Pick<TaskRecord, 'id' | 'name' | 'command'>): string {
  return task.name ?? task.command ?? `task ${task.id}`;
}

/**
 * The window name: state glyph and label (display-safe), `#` doubled so the status line shows
 * no style. A running agent's attention replaces the glyph: waiting for the user or for a
 * permission says more than idle.
 */
export function windowName(task: Task, now: number, idleMs = IDLE_AFTER_MS, attention: Attention | null = null): string {
  return escapeStyle(`${stateGlyph(task, now, idleMs, attention)} ${windowLabel(labelOf(task))}`);
}

export function stateGlyph(task: Task, now: number, idleMs = IDLE_AFTER_MS, attention: Attention | null = null): string {
  return glyphFor(taskState(task, now, idleMs), task.exitStatus, attention);
}
