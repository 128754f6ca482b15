// `fleetcom load SESSION` and `fleetcom recover [SNAPSHOT]`: this process reads the file and
// resolves its directories (a malformed file fails here, before anything spawns); the
// supervisor spawns the tasks with the caller's environment.
import path from 'node:path';
import type { Deps } from '../../deps.js';
import { FleetError } from '../../errors.js';
import { newestUnclosedSnapshot } from '../../fleet/recovery/recovery-choice.js';
import { isSessionPath, listSessions, missingDirWarning, MISSING_DIR_LABEL, parseRecoveryFileName, recoveryDir, type SkippedDir } from '../../sessions/index.js';
import { callerEnv } from '../../deps.js';
import type { Warning } from '../../warnings.js';
import { ask } from '../ask.js';
import { readSessionOf, sessionDirOf, writeWarnings } from './recipe-io.js';

export interface LoadOptions {
  /** Every warning on its own line instead of one line per reason. */
  verbose?: boolean;
  /** One JSON document on stdout (LoadReport) instead of the warnings on stderr. */
  json?: boolean;
}

/** The `--json` document of `load` and `recover`. */
export interface LoadReport {
  session: string;
  file: string;
  /** The tasks started. */
  ids: number[];
  /** Directories that do not exist, with the number of tasks in each (none of them started). */
  missingDirectories: SkippedDir[];
  /** Entries not started on purpose: a conversation open elsewhere, or named twice. */
  skipped: Warning[];
  /** Entries whose start failed. */
  errors: Warning[];
}

const MORE = '--verbose lists every one';

export async function runLoad(session: string, opts: LoadOptions, deps: Deps): Promise<number> {
  return loadInto(session, opts, deps);
}
/**
 * SNAPSHOT: a path as for SESSION; a name that is a snapshot's (`20261129-193005-4242`, as
 * `sessions` lists it) is looked up in the recovery dir; any other name is a saved session.
 */
export function snapshotArg(arg: string, sessionDir: string): string {
  if (isSessionPath(arg) || parseRecoveryFileName(`${arg}.json`) === null) return arg;
  return path.join(recoveryDir(sessionDir), `${arg}.json`);
}

export async function runRecover(snapshot: string | undefined, opts: LoadOptions, deps: Deps): Promise<number> {
  const dir = sessionDirOf(deps);
  if (snapshot !== undefined) return loadInto(snapshotArg(snapshot, dir), opts, deps);
  const status = await ask(deps, { op: 'status' });
  const { recovery } = await listSessions(dir);
  const unreadable = recovery.flatMap((e) => (e.error === null ? [] : [{ entry: e.file, reason: e.error.replace(`${e.file}: `, '') }]));
  if (!opts.json) writeWarnings(deps, unreadable, { label: 'skipping an unreadable snapshot: ', noun: 'snapshots', more: MORE }, opts.verbose);
  const chosen = newestUnclosedSnapshot(recovery, status.pid);
  if (chosen === null) {
    throw new FleetError(`no unclosed recovery snapshot to load in ${recoveryDir(dir)} (other than the running fleet's own); name a closed one: fleetcom recover SNAPSHOT (see fleetcom sessions)`);
  }
  deps.stderr.write(`recovering ${chosen.file}\n`);
  return loadInto(chosen.file, opts, deps);
}

async function loadInto(arg: string, opts: LoadOptions, deps: Deps): Promise<number> {
  const session = await readSessionOf(arg, deps);
  const verbose = opts.verbose === true;
  // A recipe of other hosts only needs no fleet here; each host's part goes to that host.
  const local = session.hosts.size === 0 || session.tasks.length > 0 || session.skipped.length > 0;
  let failed = false;
  if (local) {
    // Said before the request, so that they show also when no fleet answers it.
    if (!opts.json) writeWarnings(deps, session.skipped.map(missingDirWarning), { label: MISSING_DIR_LABEL, noun: 'directories', more: MORE }, verbose);
    // Worktrees made again before their agents resume (claude finds a conversation by its directory).
    if (session.tasks.some((task) => task.worktree !== undefined)) await ask(deps, { op: 'status' }); // no fleet: no worktree made for nothing
    const { ready, refused } = await (await import('../worktrees/worktree-run.js')).withWorktrees(session.tasks, deps);
    const result = await ask(deps, { op: 'load', tasks: ready, env: callerEnv(deps) });
    result.errors.unshift(...refused);
    const skipped = result.skipped ?? [];
    if (opts.json) {
      const report: LoadReport = { session: session.name, file: session.file, ids: result.ids, missingDirectories: session.skipped, skipped, errors: result.errors };
      deps.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      writeWarnings(deps, result.errors, { label: 'not loaded: ', more: MORE }, verbose);
      writeWarnings(deps, skipped, { label: 'skipped: ', more: MORE }, verbose);
    }
    deps.stderr.write(`loaded '${session.name}': ${result.ids.length} task(s)\n`);
    failed = result.errors.length > 0;
  }
  if (session.hosts.size > 0) {
    // Its own chunk: reaching hosts reads the ssh settings, which a local load never needs.
    // A host sums up its own warnings; --verbose goes along (its lines come back on stderr).
    const hostsFailed = await (await import('../hosts/hosts-load.js')).loadOnHosts(session.name, session.hosts, deps, verbose ? ['--verbose'] : []);
    failed ||= hostsFailed > 0;
  }
  return failed ? 1 : 0;
}
