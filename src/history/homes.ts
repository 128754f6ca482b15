import * as path from 'node:path';
import { HARNESSES, type HarnessName } from '../harness/index.js';
import type { AgentHome } from './types.js';

// The agent homes `history` reads: each agent's home in the caller's environment, the homes
// running tasks and saved recipes set (`CLAUDE_CONFIG_DIR=~/.claude-work` on an entry), and
// those config.json's `homes` names (a second account never run through fleetcom).

type Env = Readonly<Record<string, string | undefined>>;

/** Each agent's home in `base` overlaid with each of `overlays` (its agent-home variables), without repeats. */
export function homesOf(base: Env, overlays: ReadonlyArray<Readonly<Record<string, string>>>): AgentHome[] {
  const homes: AgentHome[] = [];
  for (const env of [base, ...overlays.map((overlay) => ({ ...base, ...overlay }))]) {
    for (const harness of HARNESSES) {
      if (harness.history === undefined) continue;
      try {
        homes.push({ agent: harness.name, home: path.resolve(harness.home.resolve(env)) });
      } catch {
        // Nothing locates this agent's store in that environment (no HOME): nothing to read.
      }
    }
  }
  return unique(homes);
}

/** config.json `homes`: `{"claude": ["~/.claude-work"]}`, `~` against the user's HOME. */
export function configuredHomes(homes: Readonly<Partial<Record<HarnessName, readonly string[]>>>, userHome: string): AgentHome[] {
  return Object.entries(homes).flatMap(([agent, dirs]) =>
    (dirs ?? []).map((dir) => ({ agent: agent as HarnessName, home: dir === '~' ? userHome : dir.startsWith('~/') ? path.join(userHome, dir.slice(2)) : path.resolve(dir) })),
  );
}

export function unique(homes: readonly AgentHome[]): AgentHome[] {
  const seen = new Set<string>();
  return homes.filter((h) => {
    const key = `${h.agent}\u0000${h.home}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
