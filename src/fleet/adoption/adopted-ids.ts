// An older fleet's record (state.json, or a window's own) may bind a task to a child's
// conversation: a codex subagent thread it captured before fleetcom knew them apart. Such a
// task resumes the user thread at the thread's root instead, or starts fresh when there is
// none (contract 9.5): never the child, whose turns are not the user's conversation.
import { detect, rebindResume } from '../../harness/index.js';
import type { Task } from '../supervisor/task.js';

/** Redirects the task's resume command and ids in place; the log line saying so, or null. */
export function rebindAdopted(task: Task): string | null {
  if (task.harness === null || task.home === null || task.command === null) return null;
  const named = detect(task.command);
  const rebound = rebindResume(task.command, { home: task.home, cwd: task.cwd });
  if (rebound === null || named.form !== 'resume') return null;
  task.command = rebound.command;
  task.targetId = rebound.targetId;
  if (task.pinnedId === named.targetId) task.pinnedId = rebound.targetId;
  return `task ${task.id}: its record's ${rebound.why}; a save or rerun resumes with ${rebound.command}`;
}
