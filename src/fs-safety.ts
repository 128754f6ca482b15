// The directory safety rule of product.md §4: before writing into a directory fleetcom checks
// it is a real directory owned by this user and not writable by group or others. Only a
// directory fleetcom creates itself gets a chmod; an existing one is used as it is.
import { chmodSync, lstatSync, mkdirSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { FleetError } from './errors.js';

export function ensureSafeDir(dir: string, uid: number | undefined = process.getuid?.()): void {
  let stat;
  try {
    stat = lstatSync(withoutTrailingSlash(dir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new FleetError(`cannot use ${dir}: ${(error as Error).message}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    return;
  }
  const reason = unsafeReason(stat, uid);
  if (reason) throw new FleetError(`refusing to use ${dir}: it ${reason}; fix it or choose another with FLEETCOM_RUNTIME_DIR`);
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
