// The names of what a capture namespace holds, and which paths fleetcom may delete. Pure: a
// path read back from state.json or a window option is judged by its name and place alone.
import { basename, dirname, join, resolve } from 'node:path';

const NAMESPACE_NAME = /^[1-9][0-9]*-[0-9a-f]{12}$/;
const CAPTURE_NAME = /^task-(0|[1-9][0-9]*)-(0|[1-9][0-9]*)\.json$/;
const EVENTS_NAME = /^task-(0|[1-9][0-9]*)-(0|[1-9][0-9]*)\.events$/;

/** `<dir>/task-<taskId>-<run>.json`; written by the hook or notifier, never by fleetcom. */
export function capturePath(dir: string, taskId: number, run: number): string {
  for (const [what, value] of [['task id', taskId], ['run', run]] as const) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`invalid ${what}: ${value}`);
  }
  return join(dir, `task-${taskId}-${run}.json`);
}

/** The task and run a capture file name stands for, or null for any other name. */
export function parseCaptureName(name: string): { taskId: number; run: number } | null {
  return parseRunName(CAPTURE_NAME, name);
}

/**
 * `<dir>/task-<taskId>-<run>.events` beside a capture file: claude's attention hooks append
 * their payloads there; the hook derives it from FLEETCOM_CAPTURE_FILE the same way.
 */
export function eventsPath(captureFile: string): string {
  if (!parseCaptureName(basename(captureFile))) throw new RangeError(`not a capture file: ${captureFile}`);
  return `${captureFile.slice(0, -'.json'.length)}.events`;
}

/** The task and run an events file name stands for, or null for any other name. */
export function parseEventsName(name: string): { taskId: number; run: number } | null {
  return parseRunName(EVENTS_NAME, name);
}

function parseRunName(pattern: RegExp, name: string): { taskId: number; run: number } | null {
  const match = pattern.exec(name);
  if (!match) return null;
  const taskId = Number(match[1]);
  const run = Number(match[2]);
  if (!Number.isSafeInteger(taskId) || !Number.isSafeInteger(run)) return null;
  return { taskId, run };
}

/**
 * Paths read back from state.json or a window option are only claims: a damaged or planted
 * record could name any file or directory of the user's. fleetcom deletes only what it made —
 * a namespace directly under the capture root, and a capture file directly in one of the
 * fleet's own namespaces — whatever the record says.
 */
export function isNamespaceOf(root: string, dir: string): boolean {
  const path = resolve(dir);
  return dirname(path) === resolve(root) && NAMESPACE_NAME.test(basename(path));
}

/** The capture file lies directly in one of `namespaces` and is named like a capture file. */
export function isCaptureFileIn(namespaces: readonly string[], path: string): boolean {
  const file = resolve(path);
  return parseCaptureName(basename(file)) !== null && namespaces.some((dir) => resolve(dir) === dirname(file));
}

/** The file is named like a capture file and lies directly in a namespace under `root`. */
export function isCaptureFileUnder(root: string, path: string): boolean {
  const file = resolve(path);
  return parseCaptureName(basename(file)) !== null && isNamespaceOf(root, dirname(file));
}
