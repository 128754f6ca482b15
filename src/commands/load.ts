// `fleetcom load SESSION` and `fleetcom recover [SNAPSHOT]`: this process reads the file and
// resolves its directories (a malformed file fails here, before anything spawns); the
// supervisor spawns the tasks with the caller's environment.
import path from 'node:path';
import type { Deps } from '../deps.js';
import { FleetError } from '../errors.js';
import { newestUnclosedSnapshot } from '../fleet/recovery/recovery-choice.js';
import { isSessionPath, listSessions, parseRecoveryFileName, recoveryDir } from '../sessions/index.js';
import { callerEnv } from '../deps.js';
import { ask } from './ask.js';
import { readSessionArg, sessionDirOf } from './recipe-io.js';


export async function runLoad(session: string, deps: Deps): Promise<number> {
  return loadInto(session, deps);
}

/**
 * SNAPSHOT: a path as for SESSION; a name that is a snapshot's (`20261129-193005-4242`, as
 * `sessions` lists it) is looked up in the recovery dir; any other name is a saved session.
 */
export function snapshotArg(arg: string, sessionDir: string): string {
  if (isSessionPath(arg) || parseRecoveryFileName(`${arg}.json`) === null) return arg;
  return path.join(recoveryDir(sessionDir), `${arg}.json`);
}

export async function runRecover(snapshot: string | undefined, deps: Deps): Promise<number> {
  const dir = sessionDirOf(deps);
  if (snapshot !== undefined) return loadInto(snapshotArg(snapshot, dir), deps);
  const status = await ask(deps, { op: 'status' });
  const { recovery } = await listSessions(dir);
  for (const entry of recovery) {
    if (entry.error !== null) deps.stderr.write(`skipping an unreadable snapshot: ${entry.error}\n`);
  }
  const chosen = newestUnclosedSnapshot(recovery, status.pid);
  if (chosen === null) {
    throw new FleetError(`no unclosed recovery snapshot to load in ${recoveryDir(dir)} (other than the running fleet's own); name a closed one: fleetcom recover SNAPSHOT (see fleetcom sessions)`);
  }
  deps.stderr.write(`recovering ${chosen.file}\n`);
  return loadInto(chosen.file, deps);
}

async function loadInto(arg: string, deps: Deps): Promise<number> {
  const session = await readSessionArg(arg, deps);
  // A recipe of other hosts only needs no fleet here; each host's part goes to that host.
  const local = session.hosts.size === 0 || session.tasks.length > 0 || session.skipped.length > 0;
  let failed = false;
  if (local) {
    const result = await ask(deps, { op: 'load', tasks: session.tasks, env: callerEnv(deps) });
    for (const error of result.errors) deps.stderr.write(`not loaded: ${error}\n`);
    for (const line of result.skipped ?? []) deps.stderr.write(`skipped: ${line}\n`);
    deps.stderr.write(`loaded '${session.name}': ${result.ids.length} task(s)\n`);
    failed = result.errors.length > 0;
  }
  if (session.hosts.size > 0) {
    // Its own chunk: reaching hosts reads the ssh settings, which a local load never needs.
    const hostsFailed = await (await import('./hosts-load.js')).loadOnHosts(session.name, session.hosts, deps);
    failed ||= hostsFailed > 0;
  }
  return failed ? 1 : 0;
}
