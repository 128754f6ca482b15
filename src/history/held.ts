import { harnessFor } from '../harness/index.js';
import { conversationLiveness, fleetHolderOf, readClaudeRegistry, sharedOpenFiles, type FleetHolder, type LivenessOptions } from '../ownership/index.js';
import type { Found, HeldBy } from './types.js';

// Who holds each listed conversation, from the checks `load` and `rerun` already make: a task
// of this fleet naming it, else the agent's own trace of a live process (claude's registry, an
// open codex rollout). The full check runs only for conversations a cheap look names (the
// registry mentions the id, some process holds a file with the id in its name): a history of
// thousands of rows must not read the registry or scan /proc thousands of times.

export interface FleetTask extends FleetHolder {
  agent: string;
}

export function heldBy(rows: readonly Found[], fleet: readonly FleetTask[], tmuxSocket: string | null, opts: LivenessOptions = {}): HeldBy[] {
  return rows.map(holderCheck(fleet, tmuxSocket, opts));
}

/** A check of one row at a time, sharing one registry read per home and one scan of open files. */
export function holderCheck(fleet: readonly FleetTask[], tmuxSocket: string | null, opts: LivenessOptions = {}): (row: Found) => HeldBy {
  const shared = sharedOpenFiles(opts);
  const named = new Map<string, Set<string>>();
  let openPaths: string[] | null = null;
  const registryNames = (home: string): Set<string> => {
    let ids = named.get(home);
    if (ids === undefined) {
      const read = readClaudeRegistry(home);
      ids = new Set(read.kind === 'read' ? read.records.map((r) => r.sessionId) : []);
      named.set(home, ids);
    }
    return ids;
  };
  const mentioned = (row: Found): boolean => {
    const probe = harnessFor(row.agent).ownership;
    if (probe.kind === 'claude-registry') return registryNames(row.home).has(row.id);
    if (probe.kind === 'open-file') {
      openPaths ??= [...(shared.openFiles?.()?.holders.keys() ?? [])];
      return openPaths.some((file) => file.includes(row.id));
    }
    return false;
  };
  return (row): HeldBy => {
    const task = fleet.find((t) => t.agent === row.agent && t.conversationId === row.id);
    if (task !== undefined) return { task: task.taskId };
    if (!mentioned(row)) return null;
    const live = conversationLiveness(row.agent, row.home, row.id, shared);
    if (live.state !== 'live') return null;
    const inFleet = fleetHolderOf(live.holder, fleet, tmuxSocket);
    return inFleet !== null ? { task: inFleet.taskId } : { pid: live.holder.pid };
  };
}
