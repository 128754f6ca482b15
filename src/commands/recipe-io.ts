// The CLI side of session files: paths resolved against the caller's HOME and cwd, and what a
// load could not start reported on stderr, summed up by reason (warnings.ts).
import type { Deps } from '../deps.js';
import { quoteShell } from '../harness/index.js';
import { sessionDir, userHome } from '../paths.js';
import { missingDirWarning, MISSING_DIR_LABEL, readSession, type SessionRead } from '../sessions/index.js';
import { warningLines, type Warning, type WarningStyle } from '../warnings.js';

export function sessionDirOf(deps: Deps): string {
  return sessionDir(deps.env);
}

/** The session's tasks with directories expanded; missing directories are returned as skipped. */
export function readSessionOf(arg: string, deps: Deps): Promise<SessionRead> {
  return readSession(arg, { sessionDir: sessionDirOf(deps), home: userHome(deps.env), cwd: deps.cwd });
}

/**
 * As readSessionOf, the missing directories said on stderr, summed up: `up` has no --verbose,
 * so its summary points at the command that lists every entry.
 */
export async function readSessionArg(arg: string, deps: Deps): Promise<SessionRead> {
  const session = await readSessionOf(arg, deps);
  const more = `fleetcom doctor --verbose ${quoteShell(arg)} lists every one`;
  writeWarnings(deps, session.skipped.map(missingDirWarning), { label: MISSING_DIR_LABEL, noun: 'directories', more });
  return session;
}

export function writeWarnings(deps: Pick<Deps, 'stderr'>, warnings: readonly Warning[], style: WarningStyle, verbose = false): void {
  for (const line of warningLines(warnings, style, verbose)) deps.stderr.write(`${line}\n`);
}
