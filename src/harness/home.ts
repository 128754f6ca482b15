import * as path from 'node:path';
import { harnessFor } from './registry.js';
import type { HarnessName } from './types.js';

/**
 * Contract section 4: the harness's own variable (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`,
 * `GROK_HOME`) when set and non-empty, else `$HOME/.<name>`. The environment is passed in.
 */
export function resolveHome(harness: HarnessName, env: Readonly<Record<string, string | undefined>>): string {
  const { homeVar, homeDir } = harnessFor(harness);
  const own = env[homeVar];
  if (own !== undefined && own !== '') return own;
  const home = env['HOME'];
  if (home === undefined || home === '') {
    throw new Error(`cannot resolve the ${harness} home: neither ${homeVar} nor HOME is set`);
  }
  return path.join(home, homeDir);
}
