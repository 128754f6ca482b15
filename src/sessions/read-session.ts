// Reading a session argument into tasks to load: the file found by name or path, its
// directories expanded against the caller's HOME and cwd. Tasks in a directory
// that does not exist are skipped and returned as such; the caller says so where it reports.
import { statSync } from 'node:fs';
import { expandHomes, type AgentHomes } from './agent-homes.js';
import { expandDir } from './names.js';
import { readRecipeFile, resolveSession } from './store.js';

export interface SessionTask {
  cwd: string;
  cmd: string;
  name: string | null;
  group: string | null;
  /** Agent homes (absolute) this task runs with, on top of the loader's environment. */
  env?: AgentHomes;
}

export interface SkippedDir {
  /** As written in the file. */
  dir: string;
  tasks: number;
}

export interface SessionRead {
  name: string;
  file: string;
  tasks: SessionTask[];
  skipped: SkippedDir[];
}

export async function readSession(arg: string, where: { sessionDir: string; home: string; cwd: string }): Promise<SessionRead> {
  const file = resolveSession(arg, where);
  const recipe = await readRecipeFile(file);
  const tasks: SessionTask[] = [];
  const skipped: SkippedDir[] = [];
  for (const [dir, entries] of recipe.dirs) {
    const cwd = expandDir(dir, where.home, where.cwd);
    if (!isDirectory(cwd)) {
      skipped.push({ dir, tasks: entries.length });
      continue;
    }
    for (const entry of entries) {
      const env = entry.env ? { env: expandHomes(entry.env, where.home) } : {};
      tasks.push({ cwd, cmd: entry.cmd, name: entry.name, group: entry.group, ...env });
    }
  }
  return { name: recipe.name, file, tasks, skipped };
}

export function skippedMessage(skipped: SkippedDir): string {
  return `skipping ${skipped.tasks} task(s) in ${skipped.dir}: the directory does not exist`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
