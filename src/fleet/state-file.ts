// `<runtime dir>/state.json`: what a new supervisor needs to adopt the fleet (product.md §3.6).
// Written atomically (temp file + rename, 0600) on every change; never holds environments.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { TaskRecord } from './task.js';

export const STATE_VERSION = 1;

const nullableString = z.string().nullable();
const taskSchema = z.object({
  id: z.number().int().positive(),
  run: z.number().int().nonnegative(),
  cwd: z.string(),
  command: z.string(),
  name: nullableString,
  group: nullableString,
  tagged: z.boolean(),
  harness: z.enum(['claude', 'codex', 'grok']).nullable(),
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
  endedAt: z.number().nullable().default(null),
  everHeld: z.array(z.string()).default([]),
});

const stateSchema = z.object({
  version: z.literal(STATE_VERSION),
  tmuxSession: z.string(),
  namespace: nullableString,
  nextId: z.number().int().positive(),
  tasks: z.array(taskSchema),
});

export type PersistedState = z.infer<typeof stateSchema>;

export function writeState(file: string, state: PersistedState): void {
  const temp = join(dirname(file), `.state-${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(state, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The persisted state, or null when there is none; a damaged file is reported, not fatal. */
export function readState(file: string, warn: (message: string) => void): PersistedState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = stateSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    warn(`ignoring ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  } catch {
    warn(`ignoring ${file}: not valid JSON`);
  }
  return null;
}

export function recordOf(task: TaskRecord): TaskRecord {
  const { id, run, cwd, command, name, group, tagged, harness, pinnedId, targetId, captureFile, home } = task;
  const { spawnedAt, windowId, paneId, exitHint, exitStatus, killed, endedAt, everHeld } = task;
  return { id, run, cwd, command, name, group, tagged, harness, pinnedId, targetId, captureFile, home, spawnedAt, windowId, paneId, exitHint, exitStatus, killed, endedAt, everHeld };
}
