// The CLI side of session files: paths resolved against the caller's HOME and cwd (product.md §5).
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { RecipeTask } from '../control/protocol.js';
import type { Deps } from '../deps.js';
import { expandDir, expandHomes, readRecipeFile, resolveSession, sessionDir } from '../sessions/index.js';

export function callerHome(deps: Deps): string {
  return deps.env.HOME || homedir();
}

export function sessionDirOf(deps: Deps): string {
  return sessionDir(deps.env, callerHome(deps));
}

/** The recipe's tasks with directories expanded; missing directories are skipped, with a message. */
export async function readSessionTasks(arg: string, deps: Deps): Promise<RecipeTask[]> {
  return (await readSession(arg, deps)).tasks;
}

/** readSessionTasks, with the session's name and file. */
export async function readSession(arg: string, deps: Deps): Promise<{ name: string; file: string; tasks: RecipeTask[] }> {
  const home = callerHome(deps);
  const file = resolveSession(arg, { sessionDir: sessionDirOf(deps), home, cwd: deps.cwd });
  const recipe = await readRecipeFile(file);
  const tasks: RecipeTask[] = [];
  for (const [dir, entries] of recipe.dirs) {
    const cwd = expandDir(dir, home, deps.cwd);
    if (!isDirectory(cwd)) {
      deps.stderr.write(`skipping ${entries.length} task(s) in ${dir}: the directory does not exist\n`);
      continue;
    }
    for (const entry of entries) {
      const env = entry.env ? { env: expandHomes(entry.env, home) } : {};
      tasks.push({ cwd, cmd: entry.cmd, name: entry.name, group: entry.group, ...env });
    }
  }
  return { name: recipe.name, file, tasks };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
