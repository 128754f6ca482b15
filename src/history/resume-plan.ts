import { existsSync } from 'node:fs';
import { detect, harnessFor, resumeCommand } from '../harness/index.js';
import type { Found, HeldBy } from './types.js';

// What resuming a listed conversation amounts to: going to the task that has it open, refusing
// while another process has it, refusing when its directory is gone, or starting the agent's
// resume form in its own directory with the home it was found in.

export type ResumePlan =
  | { kind: 'held-by-task'; task: number }
  | { kind: 'held-by-pid'; pid: number }
  | { kind: 'gone'; cwd: string }
  | { kind: 'start'; command: string; cwd: string; env: Record<string, string> };

/** The task's environment: the caller's, with the conversation's home as the agent's only home variable. */
export function resumeEnv(base: Readonly<Record<string, string>>, row: Pick<Found, 'agent' | 'home'>): Record<string, string> {
  const rule = harnessFor(row.agent).home;
  const env = { ...base };
  for (const name of rule.vars) delete env[name];
  return { ...env, ...rule.varsFor(row.home) };
}

export function planResume(row: Found, held: HeldBy, base: Readonly<Record<string, string>>): ResumePlan {
  if (held !== null) return 'task' in held ? { kind: 'held-by-task', task: held.task } : { kind: 'held-by-pid', pid: held.pid };
  if (!existsSync(row.cwd)) return { kind: 'gone', cwd: row.cwd };
  const detection = detect(row.agent);
  if (detection.form !== 'bare') throw new Error(`${row.agent} is not a command fleetcom knows how to resume`);
  return { kind: 'start', command: resumeCommand(detection, row.id), cwd: row.cwd, env: resumeEnv(base, row) };
}

/** The conversations `given` names: every exact id, else every id it begins. */
export function matching(found: readonly Found[], given: string): Found[] {
  const exact = found.filter((row) => row.id === given);
  return exact.length > 0 ? exact : found.filter((row) => row.id.startsWith(given));
}
