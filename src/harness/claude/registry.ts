import * as path from 'node:path';
import { fieldProblem } from '../json-shape.js';

// claude's registry of running sessions: `<home>/sessions/<pid>.json`, written a few seconds
// after start, rewritten on /clear (a new sessionId) and on every status change, deleted at
// exit. Measured on 2.1.197 and 2.1.332:
//   {"pid":22420,"sessionId":"…","cwd":"/p","startedAt":…,"procStart":"34191","version":"2.1.197",
//    "kind":"interactive","entrypoint":"cli","name":"…","status":"idle",…}
// (2.1.332 adds `tmux`, `jobId`, `parkedJobId`, `waitingFor`). It is claude's internal format,
// not an interface: anything else found there (older `pid-<n>.json` names, snake_case keys,
// torn JSON) is a problem to report, never a record to trust. Pure: the text is read elsewhere.

export interface RegistryRecord {
  file: string;
  pid: number;
  sessionId: string;
  /** Field 22 of the process's `/proc/<pid>/stat` when claude wrote it (it reads that field). */
  procStart: string | null;
  cwd: string | null;
  /** `idle`, `busy` or `waiting` (then `waitingFor` says what for). */
  status: string | null;
  waitingFor: string | null;
  /** `interactive`; `bg` for a background job's worker (2.1.332), with its `jobId`. */
  kind: string | null;
  jobId: string | null;
  /** On the entry of a claude whose conversation was parked (`←`): that job's short id. */
  parkedJobId: string | null;
}

const RECORD_FIELDS = {
  pid: 'number', sessionId: 'string', procStart: 'string?', cwd: 'string?', status: 'string?', waitingFor: 'string?',
  kind: 'string?', jobId: 'string?', parkedJobId: 'string?',
} as const;

export function registryDir(home: string): string {
  return path.join(home, 'sessions');
}

/** The record a claude of pid `pid` writes. */
export function registryFile(home: string, pid: number): string {
  return path.join(registryDir(home), `${pid}.json`);
}

/** The pid a registry file's name claims (`<pid>.json`), or null for any other name. */
export function registryPidOf(name: string): number | null {
  const match = /^(\d+)\.json$/.exec(name);
  return match ? Number(match[1]) : null;
}

/** Why a file of the registry directory is no record, judged by its name alone; null for `<pid>.json`. */
export function registryNameProblem(name: string): string | null {
  return registryPidOf(name) === null ? 'not a <pid>.json record (an older or unknown registry format)' : null;
}

/** A record read from `file`, or why it cannot be trusted. */
export function parseRegistryRecord(file: string, text: string): RegistryRecord | string {
  const pid = registryPidOf(path.basename(file));
  if (pid === null) return registryNameProblem(path.basename(file))!;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (fieldProblem(value, RECORD_FIELDS) !== null) {
    const snake = typeof value === 'object' && value !== null && 'session_id' in value;
    return snake ? 'snake_case keys (an older registry format)' : 'not a registry record (no pid and sessionId)';
  }
  const data = value as { pid: number; sessionId: string } & Partial<Record<keyof typeof RECORD_FIELDS, string>>;
  if (!Number.isSafeInteger(data.pid) || data.pid <= 0) return 'not a registry record (no pid and sessionId)';
  if (data.pid !== pid) return `names pid ${data.pid}`;
  const or = (v: string | undefined) => v ?? null;
  return {
    file, pid, sessionId: data.sessionId, procStart: or(data.procStart), cwd: or(data.cwd), status: or(data.status),
    waitingFor: or(data.waitingFor), kind: or(data.kind), jobId: or(data.jobId), parkedJobId: or(data.parkedJobId),
  };
}
