// Every process that holds a conversation now (liveness.ts answers for the first one only):
// `output` reads a conversation's store only when no process but the task's own holds it,
// since a second writer's turns would be in it (agent-deck #1400).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { harnessFor, type HarnessName } from '../harness/index.js';
import { readClaudeRegistry } from './claude-registry.js';
import { isRunning, parentPid, placeOf, processIds, startTicks, type ProcessPlace } from './proc.js';

export type Holders = { kind: 'known'; holders: ProcessPlace[] } | { kind: 'unknown'; why: string };

export function conversationHolders(harness: HarnessName, home: string, id: string, proc: string): Holders {
  const probe = harnessFor(harness).ownership;
  switch (probe.kind) {
    case 'claude-registry': {
      const registry = readClaudeRegistry(home);
      if (registry.kind === 'missing') return { kind: 'known', holders: [] };
      const pids = registry.records
        .filter((r) => r.sessionId === id && isRunning(proc, r.pid) && r.procStart !== null && startTicks(proc, r.pid) === r.procStart)
        .map((r) => r.pid);
      return { kind: 'known', holders: pids.map((pid) => placeOf(proc, pid)) };
    }
    case 'open-file': {
      const file = probe.file(home, id);
      if (file === null) return { kind: 'known', holders: [] };
      const pids = openedBy(proc, file);
      if (pids === null) return { kind: 'unknown', why: `${proc} cannot be read` };
      // A process that inherited the descriptor from its parent holding it too is the same holder.
      const held = new Set(pids);
      return { kind: 'known', holders: pids.filter((pid) => !held.has(parentPid(proc, pid) ?? -1)).map((pid) => placeOf(proc, pid)) };
    }
    case 'none':
      return { kind: 'unknown', why: probe.why };
  }
}

/** Every process with `file` open, by its /proc/<pid>/fd links; null when /proc cannot be listed. */
function openedBy(proc: string, file: string): number[] | null {
  const pids = processIds(proc);
  if (pids === null) return null;
  return pids.filter((pid) => {
    const dir = path.join(proc, String(pid), 'fd');
    let fds: string[];
    try {
      fds = fs.readdirSync(dir);
    } catch {
      return false;
    }
    return fds.some((fd) => {
      try {
        return fs.readlinkSync(path.join(dir, fd)) === file;
      } catch {
        return false;
      }
    });
  });
}
