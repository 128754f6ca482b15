import { agentHome } from '../paths.js';
import { harnessFor } from './registry.js';
import type { HarnessName } from './types.js';

/** The harness's home in `env` (its own variable, else `$HOME/.<name>`); see paths.ts agentHome. */
export function resolveHome(harness: HarnessName, env: Readonly<Record<string, string | undefined>>): string {
  return agentHome(env, harnessFor(harness));
}
