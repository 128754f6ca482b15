// `<runtime dir>/state.json`: what a new supervisor needs to adopt the fleet.
// Written atomically (temp file + rename, 0600) on every change; never holds environments.
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { keepAside, writeFileAtomicSync } from '../../fs-safety.js';
import { taskSchema } from '../supervisor/task-record.js';

export const STATE_VERSION = 1;

const stateSchema = z.object({
  version: z.literal(STATE_VERSION),
  tmuxSession: z.string(),
  namespace: z.string().nullable(),
  nextId: z.number().int().positive(),
  tasks: z.array(taskSchema),
});

export type PersistedState = z.infer<typeof stateSchema>;

/** The state a file's text holds, or why it holds none (its first few schema issues). Pure. */
export function parseState(text: string): PersistedState | string {
  try {
    const parsed = stateSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    return parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
  } catch {
    return text.length === 0 ? 'empty' : 'not valid JSON';
  }
}

export function writeState(file: string, state: PersistedState): void {
  writeFileAtomicSync(file, `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * The persisted state, or null when there is none. A damaged file is moved aside as
 * `state.json.corrupt-<time>` (never overwritten: it may be all that is left of a fleet) and
 * reported; adoption then relies on what the task windows carry.
 */
export function readState(file: string, warn: (message: string) => void, now = new Date()): PersistedState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const parsed = parseState(text);
  if (typeof parsed !== 'string') return parsed;
  const why = parsed;
  try {
    const aside = keepAside(file, now);
    warn(`${file} is damaged (${why}); kept it as ${aside} and adopted from the task windows`);
  } catch (error) {
    warn(`${file} is damaged (${why}) and could not be kept aside (${(error as Error).message}); adopted from the task windows`);
  }
  return null;
}
