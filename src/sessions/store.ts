// The session store: where session files live and how they are read and written. The only
// side effects are file-system calls, made through `fs` (node:fs/promises by default) so
// tests can inject failures.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { describeFsError, isNotFound } from '../errors.js';
import { makePrivateDirsAsync, writeFileAtomic } from '../fs-safety.js';
import {
  RecipeError,
  RecipeNotFoundError,
  SessionError,
  SessionUsageError,
} from './errors.js';
import { expandDir, isSessionPath, sessionFileName } from './names.js';
import { normalizeSessionName, parseRecipe, serializeRecipe, type Recipe } from './recipe.js';

/** The file-system calls the store makes. */
export type StoreFs = Pick<typeof fsp, 'mkdir' | 'open' | 'rename' | 'rm' | 'chmod' | 'readFile' | 'readdir' | 'stat' | 'unlink'>;

export const defaultFs: StoreFs = fsp;

/**
 * The file SESSION names: a path (`/…`, `./…`, `../…`, `~…`, `….json`) expanded against HOME
 * and cwd, else `<sessionDir>/<sanitised name>.json`. Pure.
 */
export function resolveSession(arg: string, where: { sessionDir: string; home: string; cwd: string }): string {
  if (isSessionPath(arg)) return expandDir(arg, where.home, where.cwd);
  return path.join(where.sessionDir, sessionFileName(arg));
}

/**
 * Write `text` to `file` atomically with mode 0600 (fs-safety's writeFileAtomic), creating its
 * directory 0700 if needed. On any failure the previous `file` is untouched and no temp file is left.
 */
export async function writeRecipeAtomic(file: string, text: string, fs: StoreFs = defaultFs): Promise<void> {
  const dir = path.dirname(file);
  try {
    await makePrivateDirsAsync(dir, fs);
  } catch (e) {
    throw new SessionError(`cannot create ${dir}: ${describeFsError(e)}`, 1, { cause: e });
  }
  try {
    await writeFileAtomic(file, text, fs);
  } catch (e) {
    throw new SessionError(`cannot write ${file}: ${describeFsError(e)}`, 1, { cause: e });
  }
}

/** Read and parse a session file; RecipeNotFoundError when it does not exist. */
export async function readRecipeFile(file: string, fs: StoreFs = defaultFs): Promise<Recipe> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (e) {
    if (isNotFound(e)) throw new RecipeNotFoundError(file, { cause: e });
    throw new RecipeError(file, null, `cannot read: ${describeFsError(e)}`, { cause: e });
  }
  return parseRecipe(text, file);
}

export interface SavedFile {
  file: string;
  /** True when an earlier save of the same session was replaced. */
  replaced: boolean;
}

/**
 * `save NAME`: write `recipe` under NAME as `<dir>/<sanitised name>.json`. Replaces an
 * earlier save of the same name; refuses a file that holds a different session name mapping
 * to the same file name (or that cannot be read, so a hand edit is never lost).
 */
export async function saveNamed(
  dir: string,
  name: string,
  recipe: Recipe,
  home: string,
  fs: StoreFs = defaultFs,
): Promise<SavedFile> {
  const clean = normalizeSessionName(name);
  if (clean === '') throw new SessionUsageError('a session name must not be empty');
  const file = path.join(dir, sessionFileName(name));
  let existing: Recipe | null = null;
  try {
    existing = await readRecipeFile(file, fs);
  } catch (e) {
    if (!(e instanceof RecipeNotFoundError)) {
      const reason = e instanceof Error ? e.message : String(e);
      throw new SessionError(`not saving '${clean}' over ${file}, which cannot be read as a session (${reason})`, 1, {
        cause: e,
      });
    }
  }
  if (existing !== null && normalizeSessionName(existing.name) !== clean) {
    throw new SessionError(
      `not saving '${clean}': its file ${file} holds the session '${existing.name}'; choose another name`,
    );
  }
  await writeRecipeAtomic(file, serializeRecipe({ ...recipe, name: clean }, home), fs);
  return { file, replaced: existing !== null };
}

/** The names in `dir`, or none when it does not exist yet. */
export async function namesIn(dir: string, fs: StoreFs = defaultFs): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (e) {
    if (isNotFound(e)) return [];
    throw e;
  }
}
