// The fleet as a recipe: the supervisor's tasks grouped by directory, in
// task order, and how a save reports it. Pure; both `save` (CLI side) and the recovery writer
// and dashboard (supervisor side) use it.
import type { RecipeTask } from '../../control/protocol.js';
import { detect } from '../../harness/index.js';
import { countTasks, type Recipe, type RecipeEntry } from '../../sessions/index.js';

export function fleetRecipe(name: string, tasks: readonly RecipeTask[]): Recipe {
  const dirs = new Map<string, RecipeEntry[]>();
  for (const task of tasks) {
    const entries = dirs.get(task.cwd) ?? [];
    entries.push({ cmd: task.cmd, group: task.group, name: task.name, ...(task.env ? { env: task.env } : {}), ...(task.worktree ? { worktree: { repo: task.worktree.repo, branch: task.worktree.branch, base: task.worktree.base, baseRef: task.worktree.baseRef } } : {}) });
    dirs.set(task.cwd, entries);
  }
  return { name, dirs };
}

/** Entries stored as the canonical resume command of an agent. */
export function countResumable(recipe: Recipe): number {
  let n = 0;
  const lists = [...recipe.dirs.values(), ...[...(recipe.hosts?.values() ?? [])].flatMap((dirs) => [...dirs.values()])];
  for (const entries of lists) for (const entry of entries) if (detect(entry.cmd).form === 'resume') n += 1;
  return n;
}

/** An empty fleet saved by mistake would replace a good recipe with nothing. */
export const NOTHING_TO_SAVE = 'the fleet has no tasks; nothing saved';

export function savedMessage(recipe: Recipe): string {
  return `saved '${recipe.name}': ${countTasks(recipe)} command(s) (${countResumable(recipe)} resumable)\n`;
}
