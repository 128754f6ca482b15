// The session store: where session files live and how they are read and written. The only
// side effects are file-system calls, made through `fs` (node:fs/promises by default) so
// tests can inject failures.
import { constants } from 'node:fs';
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

/**
 * The largest session file read: a recipe of 300 000 entries is ~10 MiB. A larger file is
 * refused from its size alone, before it is read into memory.
 */
export const MAX_RECIPE_BYTES = 16 * 1024 * 1024;

/** Read and parse a session file; RecipeNotFoundError when it does not exist. */
export async function readRecipeFile(file: string, fs: StoreFs = defaultFs): Promise<Recipe> {
  return parseRecipe(await readBounded(file, fs), file);
}

/**
 * The file's text, at most MAX_RECIPE_BYTES: its size is looked at first, and what is read is
 * bounded too, in case the file grows meanwhile. Opened without blocking, so a named pipe or a
 * device is refused as not a file instead of waiting or reading without end.
 */
async function readBounded(file: string, fs: StoreFs): Promise<string> {
  let handle: Awaited<ReturnType<StoreFs['open']>>;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    if (isNotFound(e)) throw new RecipeNotFoundError(file, { cause: e });
    throw new RecipeError(file, null, `cannot read: ${describeFsError(e)}`, { cause: e });
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new RecipeError(file, null, 'not a regular file');
    if (st.size > MAX_RECIPE_BYTES) throw tooLargeRecipe(file, `${st.size} bytes`);
    let buffer = Buffer.alloc(Math.min(st.size, MAX_RECIPE_BYTES) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > MAX_RECIPE_BYTES) throw tooLargeRecipe(file, 'it grew past the limit while it was read');
        const larger = Buffer.alloc(Math.min(buffer.length * 2, MAX_RECIPE_BYTES + 1));
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.toString('utf8', 0, length);
  } catch (e) {
    if (e instanceof RecipeError) throw e;
    throw new RecipeError(file, null, `cannot read: ${describeFsError(e)}`, { cause: e });
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The refusal of a session file (or a recipe on stdin) over MAX_RECIPE_BYTES; `size` says how large it was. */
export function tooLargeRecipe(file: string, size: string): RecipeError {
  return new RecipeError(file, null, `too large for a session file (${size}); the limit is 16 MiB (${MAX_RECIPE_BYTES} bytes)`);
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
