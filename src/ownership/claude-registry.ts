import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRegistryRecord, registryDir, registryNameProblem, type RegistryRecord } from '../harness/index.js';
import { hasProcTree, isRunning, placeOf, startTicks, type Liveness } from './proc.js';

// claude's registry of running sessions (harness/claude/registry.ts reads one record): every
// record of a home, and whether a conversation is open in one of them.

export { registryDir, type RegistryRecord };

export type RegistryRead =
  | { kind: 'missing'; dir: string }
  | { kind: 'read'; dir: string; records: RegistryRecord[]; problems: string[] };

export function readClaudeRegistry(home: string): RegistryRead {
  const dir = registryDir(home);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing', dir };
    return { kind: 'read', dir, records: [], problems: [`${dir}: ${code ?? String(error)}`] };
  }
  const records: RegistryRecord[] = [];
  const problems: string[] = [];
  for (const name of names.sort()) {
    if (name.startsWith('.') || !name.endsWith('.json')) continue;
    const file = path.join(dir, name);
    const parsed = parseRecord(file);
    if (typeof parsed === 'string') problems.push(`${file}: ${parsed}`);
    else records.push(parsed);
  }
  return { kind: 'read', dir, records, problems };
}

/** A record, or why it cannot be trusted. */
function parseRecord(file: string): RegistryRecord | string {
  const badName = registryNameProblem(path.basename(file));
  if (badName !== null) return badName;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `unreadable (${code ?? String(error)})`;
  }
  return parseRegistryRecord(file, text);
}

/**
 * Whether a claude process holds conversation `id` now: a record naming it whose pid runs and
 * whose `procStart` is that process's start time. A dead pid or another start time is a stale
 * record (claude was killed before it could delete it). Untrustworthy records → unknown.
 */
export function claudeLiveness(home: string, id: string, proc: string): Liveness {
  const registry = readClaudeRegistry(home);
  if (registry.kind === 'missing') {
    return { state: 'unknown', source: `claude registry ${registry.dir}`, why: 'the registry directory does not exist' };
  }
  const source = `claude registry ${registry.dir} (${registry.records.length} record(s))`;
  // Without a proc tree (macOS) no pid reads as running: every record would look stale and the
  // conversation free. Not being able to look is not evidence.
  if (registry.records.some((entry) => entry.sessionId === id) && !hasProcTree(proc)) {
    return { state: 'unknown', source, why: `${proc} cannot be read, so whether pid(s) of the registry run is not known` };
  }
  const doubts = [...registry.problems];
  for (const entry of registry.records) {
    if (entry.sessionId !== id || !isRunning(proc, entry.pid)) continue;
    const ticks = startTicks(proc, entry.pid);
    if (entry.procStart === null || ticks === null) {
      doubts.push(`${entry.file}: pid ${entry.pid} runs but its start time cannot be compared`);
      continue;
    }
    if (ticks !== entry.procStart) continue; // the pid now belongs to another process
    return { state: 'live', source, holder: placeOf(proc, entry.pid) };
  }
  if (doubts.length > 0) return { state: 'unknown', source, why: doubts.join('; ') };
  return { state: 'free', source };
}
