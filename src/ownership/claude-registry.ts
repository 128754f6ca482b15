import * as fs from 'node:fs';
import * as path from 'node:path';
import * as z from 'zod';
import { isRunning, placeOf, processIds, startTicks, type Liveness } from './proc.js';

// claude's registry of running sessions: `<home>/sessions/<pid>.json`, written at start,
// updated on /clear (a new sessionId), deleted at exit. Measured on 2.1.197:
//   {"pid":22420,"sessionId":"…","cwd":"/p","startedAt":…,"procStart":"34191","version":"2.1.197",
//    "peerProtocol":1,"kind":"interactive","entrypoint":"cli","name":"…","status":"idle",…}
// It is claude's internal format, not an interface: anything else found there (older
// `pid-<n>.json` names, snake_case keys, torn JSON) makes the answer "unknown", never "free".

const record = z.looseObject({
  pid: z.number().int().positive(),
  sessionId: z.string(),
  procStart: z.string().optional(),
  cwd: z.string().optional(),
  status: z.string().optional(),
  // 2.1.332 adds these: `kind` "bg" for a background job's worker, its `jobId`, and on the
  // entry of a claude whose conversation was parked (`←`), that job's `parkedJobId`.
  kind: z.string().optional(),
  jobId: z.string().optional(),
  parkedJobId: z.string().optional(),
});

export interface RegistryRecord {
  file: string;
  pid: number;
  sessionId: string;
  procStart: string | null;
  kind: string | null;
  jobId: string | null;
  parkedJobId: string | null;
}

export type RegistryRead =
  | { kind: 'missing'; dir: string }
  | { kind: 'read'; dir: string; records: RegistryRecord[]; problems: string[] };

export function registryDir(home: string): string {
  return path.join(home, 'sessions');
}

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
    const parsed = parseRecord(file, name);
    if (typeof parsed === 'string') problems.push(`${file}: ${parsed}`);
    else records.push(parsed);
  }
  return { kind: 'read', dir, records, problems };
}

/** A record, or why it cannot be trusted. */
function parseRecord(file: string, name: string): RegistryRecord | string {
  const pidName = /^(\d+)\.json$/.exec(name);
  if (pidName === null) return 'not a <pid>.json record (an older or unknown registry format)';
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `unreadable (${code})` : 'not JSON';
  }
  const parsed = record.safeParse(value);
  if (!parsed.success) {
    const snake = typeof value === 'object' && value !== null && 'session_id' in value;
    return snake ? 'snake_case keys (an older registry format)' : 'not a registry record (no pid and sessionId)';
  }
  if (String(parsed.data.pid) !== pidName[1]) return `names pid ${parsed.data.pid}`;
  const { pid, sessionId, procStart, kind, jobId, parkedJobId } = parsed.data;
  return { file, pid, sessionId, procStart: procStart ?? null, kind: kind ?? null, jobId: jobId ?? null, parkedJobId: parkedJobId ?? null };
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
  if (registry.records.some((entry) => entry.sessionId === id) && processIds(proc) === null) {
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
