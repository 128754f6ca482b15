// The CLI side of session files: paths resolved against the caller's HOME and cwd, `-` read
// from stdin (how one fleetcom hands a host its part of a recipe), and what a load could not
// start reported on stderr, summed up by reason (warnings.ts).
import type { Deps } from '../../deps.js';
import { quoteShell } from '../../harness/index.js';
import { sessionDir, userHome } from '../../paths.js';
import {
  MAX_RECIPE_BYTES, missingDirWarning, MISSING_DIR_LABEL, parseRecipe, readRecipeFile, resolveSession, sessionOf,
  tooLargeRecipe, type Recipe, type SessionRead,
} from '../../sessions/index.js';
import { warningLines, type Warning, type WarningStyle } from '../../warnings.js';

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

/** The session's tasks with directories expanded; missing directories are returned as skipped. */
export async function readSessionOf(arg: string, deps: Deps): Promise<SessionRead> {
  const { file, recipe } = await readRecipeArg(arg, deps);
  return sessionOf(recipe, file, { home: userHome(deps.env), cwd: deps.cwd });
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

/** All of stdin, refused past the session file limit as a file is (a recipe is never that large). */
export async function readStdinText(): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of process.stdin) {
    length += (chunk as Buffer).length;
    if (length > MAX_RECIPE_BYTES) {
      process.stdin.destroy();
      throw tooLargeRecipe(STDIN_NAME, `${length} bytes so far`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
