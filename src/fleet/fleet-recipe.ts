// The fleet as a recipe (contract section 7): the supervisor's tasks grouped by directory, in
// task order. Pure; both `save` (CLI side) and the recovery writer (supervisor side) use it.
import type { RecipeTask } from '../control/protocol.js';
import type { Recipe, RecipeEntry } from '../sessions/index.js';

export function fleetRecipe(name: string, tasks: readonly RecipeTask[]): Recipe {
  const dirs = new Map<string, RecipeEntry[]>();
  for (const task of tasks) {
    const entries = dirs.get(task.cwd) ?? [];
    entries.push({ cmd: task.cmd, group: task.group, name: task.name, ...(task.env ? { env: task.env } : {}) });
    dirs.set(task.cwd, entries);
  }
  return { name, dirs };
}
