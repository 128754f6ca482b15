// The CLI side of session files: paths resolved against the caller's HOME and cwd, and the
// directories a session names that do not exist reported on stderr.
import type { Deps } from '../deps.js';
import { sessionDir, userHome } from '../paths.js';
import { readSession, skippedMessage, type SessionRead } from '../sessions/index.js';

export function sessionDirOf(deps: Deps): string {
  return sessionDir(deps.env);
}

/** The session's tasks with directories expanded; missing directories are skipped, with a message. */
export async function readSessionArg(arg: string, deps: Deps): Promise<SessionRead> {
  const session = await readSession(arg, { sessionDir: sessionDirOf(deps), home: userHome(deps.env), cwd: deps.cwd });
  for (const skipped of session.skipped) deps.stderr.write(`${skippedMessage(skipped)}\n`);
  return session;
}
