// What is kept of a task across supervisors (state.json, and in part the task window's own
// record): one zod schema, and the TypeScript type inferred from it, so the file format and
// the code cannot drift apart. Only type imports of this file reach the client commands.
import * as z from 'zod';
import { HARNESS_NAMES } from '../../harness/names.js';
import { worktreeRecordProblem, type WorktreeRecord } from '../../worktree-record.js';

const nullableString = z.string().nullable();

const followedSchema = z.object({
  pid: z.number().int().positive(),
  /** Field 22 of its `/proc/<pid>/stat`: with the pid it names this process for good. */
  start: z.string().regex(/^\d+$/),
  /**
   * The exit hints the pane's text already held when it was adopted (an earlier agent's in the
   * same shell), by id, with how often each appeared: an exit hint of this run is one beyond
   * them. `capped`: more ids than were kept, so an id not kept may be an old one too.
   */
  hintsBefore: z.record(z.string(), z.number().int().nonnegative()),
  capped: z.boolean().default(false),
});

/** A task's record; the record a task window carries (window-spec.ts) is a part of it. */
export const taskSchema = z.object({
  id: z.number().int().positive(),
  run: z.number().int().nonnegative(),
  cwd: z.string(),
  /** The requested command; null for a window adopted with no record of it (never rerun or saved). */
  command: nullableString,
  name: nullableString,
  group: nullableString,
  tagged: z.boolean(),
  harness: z.enum(HARNESS_NAMES).nullable(),
  pinnedId: nullableString,
  targetId: nullableString,
  captureFile: nullableString,
  home: nullableString,
  spawnedAt: z.number(),
  windowId: z.string(),
  paneId: z.string(),
  exitHint: nullableString,
  exitStatus: z.number().nullable(),
  killed: z.boolean(),
  /** Set once the pane's process has ended and its text was scraped. */
  endedAt: z.number().nullable().default(null),
  /** Conversation ids this task held in earlier runs or left with /clear. */
  everHeld: z.array(z.string()).default([]),
  /**
   * A run fleetcom did not start: the agent process someone started by hand that the task
   * follows since it was adopted (fleet/agent-panes). Its end is the run's end, also when the
   * shell it runs under lives on; null for runs fleetcom started.
   */
  followed: followedSchema.nullable().optional(),
  /**
   * The id the capture watcher last resolved for this run, kept because the capture file can be
   * lost with its namespace (a tmp cleaner sweeping the runtime dir): the task must not then fall
   * back to an older id. Input when read back: used only if it passes the agent's id check.
   */
  captured: nullableString.optional(),
  /** The conversation the followed process's own traces named when last read (claude's registry, codex's open rollout). */
  tracedId: nullableString.optional(),
  /** The git worktree fleetcom made or shared for it (its cwd is the worktree's path). */
  worktree: z.custom<WorktreeRecord>((v) => worktreeRecordProblem(v) === null).nullable().optional(),
});

/** What state.json keeps of a task, plus run bookkeeping. */
export type TaskRecord = z.infer<typeof taskSchema>;

/** The hand-started agent process an adopted run follows. */
export type Followed = z.infer<typeof followedSchema>;

const RECORD_KEYS = Object.keys(taskSchema.shape) as (keyof TaskRecord)[];

/** The record of a task (or of anything holding one): exactly the schema's keys, nothing in memory only. */
export function recordOf(task: TaskRecord): TaskRecord {
  return Object.fromEntries(RECORD_KEYS.map((key) => [key, task[key]])) as TaskRecord;
}
