import { harnessFor } from './registry.js';
import type { HarnessName } from './types.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The harness's store root in `env` (its home rule). */
export function resolveHome(harness: HarnessName, env: Env): string {
  return harnessFor(harness).home.resolve(env);
}

/** The variables a recipe keeps for a task's home: those that differ from HOME's defaults. */
export function homeVarsToKeep(harness: HarnessName, home: string, userHome: string): Record<string, string> {
  const rule = harnessFor(harness).home;
  const defaults = rule.defaults(userHome);
  return Object.fromEntries(Object.entries(rule.varsFor(home)).filter(([name, dir]) => defaults[name] !== dir));
}

