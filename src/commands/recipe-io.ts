// The CLI side of session files: paths resolved against the caller's HOME and cwd, `-` read
// from stdin (how one fleetcom hands a host its part of a recipe), and the directories a
// session names that do not exist reported on stderr.
import type { Deps } from '../deps.js';
import { sessionDir, userHome } from '../paths.js';
import { parseRecipe, readRecipeFile, resolveSession, sessionOf, skippedMessage, type Recipe, type SessionRead } from '../sessions/index.js';

/** The session argument that means "the recipe on stdin". */
export const STDIN_SESSION = '-';
const STDIN_NAME = '(stdin)';

export function sessionDirOf(deps: Deps): string {
  return sessionDir(deps.env);
}

/** The recipe SESSION names (a name, a path, or `-`) and the file it came from. */
export async function readRecipeArg(arg: string, deps: Deps): Promise<{ file: string; recipe: Recipe }> {
  if (arg === STDIN_SESSION) return { file: STDIN_NAME, recipe: parseRecipe(await readStdinText(), STDIN_NAME) };
  const file = resolveSession(arg, { sessionDir: sessionDirOf(deps), home: userHome(deps.env), cwd: deps.cwd });
  return { file, recipe: await readRecipeFile(file) };
}

/** The session's tasks with directories expanded; missing directories are skipped, with a message. */
export async function readSessionArg(arg: string, deps: Deps): Promise<SessionRead> {
  const { file, recipe } = await readRecipeArg(arg, deps);
  const session = sessionOf(recipe, file, { home: userHome(deps.env), cwd: deps.cwd });
  for (const skipped of session.skipped) deps.stderr.write(`${skippedMessage(skipped)}\n`);
  return session;
}

/** All of stdin. */
export async function readStdinText(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
