// How fleetcom touches its own files, in one place: the safety check of a directory it writes
// into (a real directory owned by this user, not writable by group or others), 0700 creation
// (only what it creates is chmodded: an existing directory is the user's and is used as it is),
// atomic writes (a temp file in the same directory, fsync, rename: a reader or a crash sees the
// old file or the new one, never half of one) and removal that never follows a symlink.
// It stays one file past the usual ~250 lines on purpose: these rules must agree with each
// other (a directory made here passes the check made here), and one place is what a reviewer
// of fleetcom's file safety reads.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
  type Stats,
} from 'node:fs';
import fsp from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describeFsError, errnoCode, FleetError, isNotFound } from './errors.js';

/** The text of one of fleetcom's own files, or null when there is none yet; any other failure names the file. */
export function readOwnFile(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return null;
    throw new FleetError(`${file}: cannot be read: ${describeFsError(error)}`);
  }
}

/** A directory fleetcom may not use or could not set up; the reason follows its path. */
export class UnsafeDirError extends FleetError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} ${reason}`);
  }
}

/** The runtime dir exists (created 0700 when missing) and is safe; else a FleetError naming it. */
export function ensureSafeDir(dir: string, uid: number | undefined = process.getuid?.()): void {
  let reason: string | null;
  try {
    reason = safeDirProblem(dir, uid);
  } catch (error) {
    throw new FleetError(`cannot use ${dir}: ${error instanceof UnsafeDirError ? error.reason : (error as Error).message}`);
  }
  if (reason) throw new FleetError(`refusing to use ${dir}: it ${reason}; fix it or choose another with FLEETCOM_RUNTIME_DIR`);
}

/**
 * Why `dir` may not hold fleetcom's files, or null when it may. A missing `dir` is created
 * first (0700, missing parents too); one another process created meanwhile is checked, not
 * chmodded. Throws UnsafeDirError when it cannot be inspected, created or secured.
 */
export function safeDirProblem(dir: string, uid: number | undefined): string | null {
  const path = withoutTrailingSlash(dir);
  let stat: Stats;
  try {
    stat = lstatSync(path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw new UnsafeDirError(dir, `cannot be inspected (${errnoCode(error) ?? String(error)})`);
    makePrivateDirs(path);
    stat = lstatSync(path);
  }
  return unsafeReason(stat, uid);
}

/** `dir` is there and safe now (nothing is created; unreadable counts as unsafe). */
export function isSafeDir(dir: string, uid: number | undefined = process.getuid?.()): boolean {
  try {
    return unsafeReason(lstatSync(withoutTrailingSlash(dir)), uid) === null;
  } catch {
    return false;
  }
}

/**
 * The path lstat must look at: `link/` (or `link/.`) makes the kernel follow the symlink, so
 * a runtime dir given with a trailing slash would pass for the directory it points to.
 */
export function withoutTrailingSlash(dir: string): string {
  return resolve(dir);
}

/** Why an existing directory may not hold fleetcom's files, or null when it is safe. */
export function unsafeReason(stat: Stats, uid: number | undefined): string | null {
  if (stat.isSymbolicLink()) return 'is a symbolic link';
  if (!stat.isDirectory()) return 'is not a directory';
  if (uid !== undefined && stat.uid !== uid) return `is owned by uid ${stat.uid}, not by you (uid ${uid})`;
  if ((stat.mode & 0o022) !== 0) {
    const who = stat.mode & 0o020 ? 'group' : 'others';
    return `is writable by ${who} (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})`;
  }
  return null;
}

/** Creates `dir` and its missing parents, each it created set to 0700. Throws UnsafeDirError. */
export function makePrivateDirs(dir: string): void {
  let first: string | undefined;
  try {
    first = mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UnsafeDirError(dir, `cannot be created (${errnoCode(error) ?? String(error)})`);
  }
  // `first` is the topmost directory this call created; undefined if another process won the
  // race, in which case the directory is someone else's and gets checked, not chmodded.
  if (first === undefined) return;
  try {
    for (const created of createdChain(first, dir)) chmodPrivateDir(created);
  } catch (error) {
    if (error instanceof UnsafeDirError) throw error;
    throw new UnsafeDirError(dir, `cannot be secured (${errnoCode(error) ?? String(error)})`);
  }
}

/**
 * Creates the one new directory `dir` (0700); its parent must exist. Throws the fs error
 * (EEXIST …); a directory it made but could not secure is removed again.
 */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { mode: 0o700 });
  try {
    chmodPrivateDir(dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** `first`, then each directory below it down to `last` (all made by one recursive mkdir). */
function createdChain(first: string, last: string): string[] {
  const top = resolve(first);
  const chain: string[] = [];
  for (let path = resolve(last); ; path = dirname(path)) {
    chain.unshift(path);
    if (path === top || dirname(path) === path) break;
  }
  return chain[0] === top ? chain : [resolve(last)];
}

/** mkdir's mode is filtered by the umask: chmod 0700 through a no-follow handle, so a directory swapped for a symlink is not followed. */
function chmodPrivateDir(path: string): void {
  const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  try {
    fchmodSync(fd, 0o700);
    if (!fstatSync(fd).isDirectory()) throw new UnsafeDirError(path, 'is not a directory');
  } finally {
    closeSync(fd);
  }
}

/** Creates `path` exclusively (never through a symlink), writes `content`, sets `mode` (umask-proof). */
export function writeNewFile(path: string, content: string, mode: number): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    writeAll(fd, content);
    fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates `file` holding `text` (0600) whole at once, so a reader never sees it empty or half
 * written; false when `file` already exists (a hard link never replaces its target).
 */
export function createWhole(file: string, text: string): boolean {
  const temp = tempBeside(file);
  writeNewFile(temp, text, 0o600);
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
    return false;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Replaces `file` with `text` (0600) atomically; on failure the temp file is gone and `file` untouched. */
export function writeFileAtomicSync(file: string, text: string): void {
  const temp = tempBeside(file);
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeAll(fd, text);
      fchmodSync(fd, 0o600);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The file-system calls the asynchronous writers make, injectable so tests can fail each one. */
export type WriteFs = Pick<typeof fsp, 'mkdir' | 'open' | 'rename' | 'rm' | 'chmod'>;

/** Create `dir` and missing parents; only the directories created here are set to 0700. */
export async function makePrivateDirsAsync(dir: string, fs: WriteFs = fsp): Promise<void> {
  const first = await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  for (const created of createdChain(first, dir)) await fs.chmod(created, 0o700);
}

/**
 * `writeFileAtomicSync` for the CLI's session files, asynchronous and with the directory
 * fsynced after the rename (best effort), so a saved session survives a power cut.
 */
export async function writeFileAtomic(file: string, text: string, fs: WriteFs = fsp): Promise<void> {
  const temp = tempBeside(file);
  let handle: Awaited<ReturnType<WriteFs['open']>> | undefined;
  try {
    handle = await fs.open(temp, 'wx', 0o600);
    await handle.writeFile(text, 'utf8');
    await handle.chmod(0o600);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temp, file);
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
  await syncDir(dirname(file), fs);
}

async function syncDir(dir: string, fs: WriteFs): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse fsync on a directory; the file is written and renamed, only its
    // durability across a power cut is weaker.
  }
}

/**
 * Moves a damaged `file` aside as `<file>.corrupt-<time>` and returns that name: it may be all
 * that is left of what it recorded, so it is kept for the user rather than overwritten.
 */
export function keepAside(file: string, now: Date): string {
  const aside = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  return aside;
}

/** Makes a file fleetcom just created (the control socket) readable and writable by its owner only. */
export function restrictToOwner(path: string): void {
  chmodSync(path, 0o600);
}

/** Removes the file (or socket) at `path`; a missing one is fine. */
export function removeFile(path: string): void {
  rmSync(path, { force: true });
}

/**
 * Removes the directory `dir` and what is in it; false when it did not exist. Refuses (with
 * UnsafeDirError) anything that is not a real directory, so a symlink planted in its place
 * never leads the removal elsewhere.
 */
export function removeDirTree(dir: string): boolean {
  let stat: Stats;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
  if (!stat.isDirectory()) throw new UnsafeDirError(dir, 'is not a directory; refusing to remove it');
  rmSync(dir, { recursive: true, force: true });
  return true;
}

/**
 * A short random temp name in the same directory, so the rename stays on one file system; the
 * leading dot and `.tmp` keep it out of the session listings.
 */
function tempBeside(file: string): string {
  return join(dirname(file), `.fleetcom-${randomBytes(4).toString('hex')}.tmp`);
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}
