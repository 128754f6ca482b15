// What a task window carries about its task (`@fleetcom-spec`), so that a supervisor can adopt
// it even when state.json is lost or damaged: the command, cwd, harness and ids. Pure.
//
// The value is base64url of JSON: no `#` for tmux to expand, no separator, newline or `;` that
// could shift a field of a query, whatever the command or name holds. Read back it is
// untrusted like any tmux value: schema-checked, and a value that does not decode is no record.
// It names its task and run: a record too big to ride along in the call that makes the window
// or starts a rerun is set in a later call, and a crash in between leaves a window without
// one (an unknown task) or with its previous run's, which must not pass for the new run.
import * as z from 'zod';
import { taskSchema } from '../supervisor/task-record.js';

export const SPEC_OPTION = '@fleetcom-spec';
/** Every character an encoded spec can hold (base64url). */
export const SPEC_CHARS = /^[A-Za-z0-9_-]+$/;
const SPEC_VERSION = 2;
/** Held conversation ids kept on the window: the newest few are all a resume ever needs. */
const HELD_KEPT = 8;

const specSchema = taskSchema
  .pick({
    id: true, run: true, cwd: true, name: true, group: true, tagged: true, harness: true, pinnedId: true, targetId: true,
    captureFile: true, home: true, spawnedAt: true, exitHint: true, everHeld: true, followed: true, tracedId: true, worktree: true,
    captured: true,
  })
  .extend({ v: z.literal(SPEC_VERSION), command: z.string() });

export type WindowSpecRecord = z.infer<typeof specSchema>;

type SpecFields = Omit<WindowSpecRecord, 'v'>;

export function encodeSpec(task: SpecFields): string {
  const { id, run, command, cwd, name, group, tagged, harness, pinnedId, targetId, captureFile, home, spawnedAt, exitHint, followed, tracedId, worktree, captured } = task;
  const spec: WindowSpecRecord = {
    v: SPEC_VERSION, id, run, command, cwd, name, group, tagged, harness, pinnedId, targetId, captureFile, home, spawnedAt, exitHint,
    everHeld: task.everHeld.slice(-HELD_KEPT), ...(followed ? { followed } : {}), ...(tracedId ? { tracedId } : {}), ...(worktree ? { worktree } : {}),
    ...(captured ? { captured } : {}),
  };
  return Buffer.from(JSON.stringify(spec), 'utf8').toString('base64url');
}

/** The record a window carries for run `run` of task `id`, or null (absent, malformed, or another task's or run's). */
export function decodeSpec(value: string | null | undefined, id: number, run: number): WindowSpecRecord | null {
  if (!value || !SPEC_CHARS.test(value)) return null;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = specSchema.safeParse(json);
  return parsed.success && parsed.data.id === id && parsed.data.run === run ? parsed.data : null;
}

/** A spec up to this size rides along in the tmux call that makes the window; a bigger one follows in its own call. */
const INLINE_MAX = 2_048;

type SpecTask = Omit<SpecFields, 'command'> & { command: string | null; windowId: string };

/**
 * The spec last put on each task's window, so a fleet change sets only the specs that changed
 * (a tmux call per window per change would cost more than the change).
 */
export class WindowSpecs {
  private readonly given = new Map<number, string>();

  /** The spec for a window being made, when small enough to go in the same tmux call (then recorded as given). */
  inline(task: SpecTask): string | null {
    if (task.command === null) return null;
    const spec = encodeSpec({ ...task, command: task.command });
    if (spec.length > INLINE_MAX) return null;
    this.given.set(task.id, spec);
    return spec;
  }

  /**
   * The spec for a window that exists, whatever its size (then recorded as given): no
   * new-window shares its tmux call, so it can go with the rerun's run up to a whole call.
   */
  current(task: SpecTask): string | null {
    if (task.command === null) return null;
    const spec = encodeSpec({ ...task, command: task.command });
    this.given.set(task.id, spec);
    return spec;
  }

  /** `[windowId, option, spec]` for each task with a window whose spec changed (now recorded as given). */
  changes(tasks: Iterable<SpecTask>): Array<[string, string, string]> {
    const out: Array<[string, string, string]> = [];
    for (const task of tasks) {
      if (task.command === null || task.windowId === '') continue;
      const spec = encodeSpec({ ...task, command: task.command });
      if (this.given.get(task.id) === spec) continue;
      this.given.set(task.id, spec);
      out.push([task.windowId, SPEC_OPTION, spec]);
    }
    return out;
  }

  forget(taskId: number): void {
    this.given.delete(taskId);
  }
}
