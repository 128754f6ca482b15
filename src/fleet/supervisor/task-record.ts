// What is kept of a task across supervisors (state.json, and in part the task window's own
// record): one zod schema, and the TypeScript type inferred from it, so the file format and
// the code cannot drift apart. Only type imports of this file reach the client commands.
import * as z from 'zod';
import { HARNESS_NAMES } from '../../harness/names.js';

const nullableString = z.string().nullable();

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
});

/** What state.json keeps of a task, plus run bookkeeping. */
export type TaskRecord = z.infer<typeof taskSchema>;

const RECORD_KEYS = Object.keys(taskSchema.shape) as (keyof TaskRecord)[];

/** The record of a task (or of anything holding one): exactly the schema's keys, nothing in memory only. */
export function recordOf(task: TaskRecord): TaskRecord {
  return Object.fromEntries(RECORD_KEYS.map((key) => [key, task[key]])) as TaskRecord;
}
