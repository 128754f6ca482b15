import { harnessFor } from './registry.js';
import type { HarnessName, StoredConversation } from './types.js';

// Whether a conversation a recipe names can be resumed from the agent's own store: the check
// `fleetcom doctor` makes before anything starts. Reads only under the home it is given.

export type { StoredConversation } from './types.js';
export { findRollout } from './codex/rollouts.js';

/** Where `<agent> <resume> <id>` run in `cwd` with `home` would look, and whether it would find a conversation. */
export function storedConversation(harness: HarnessName, home: string, cwd: string, id: string): StoredConversation {
  const agent = harnessFor(harness);
  if (!agent.isId(id)) return { found: false, path: home, why: `${JSON.stringify(id)} is not a conversation id` };
  return agent.stored(home, cwd, id);
}
