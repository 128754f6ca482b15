// The capture namespace `<root>/<pid>-<nonce>`: installing it safely, deleting a run's
// capture files in it, and removing it on `down` (what is named how: capture-names.ts).
// Only directories created here are ever chmodded, and nothing else under the root is touched.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  rmSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FleetError } from '../errors.js';
import { unsafeReason } from '../fs-safety.js';
import {
  CLAUDE_SETTINGS,
  CLAUDE_SETTINGS_FILE,
  CLAUDE_SETTINGS_MODE,
  CODEX_NOTIFY_FILE,
  CODEX_NOTIFY_MODE,
  CODEX_NOTIFY_SCRIPT,
} from './assets.js';
import { eventsPath, isCaptureFileIn, isNamespaceOf } from './capture-names.js';

/** Install or removal refused or failed (exit code 1), naming the path and the reason. */
export class CaptureSetupError extends FleetError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`capture namespace: ${path} ${reason}`);
  }
}

export interface Namespace {
  root: string;
  /** `<root>/<pid>-<nonce>`. */
  dir: string;
  settingsPath: string;
  notifyPath: string;
}

export interface InstallOptions {
  /** The supervisor's pid. */
  pid: number;
  /** 12 lowercase hex digits; random when omitted (tests pass one to force a collision). */
  nonce?: string;
  /** Owner the root must have; defaults to this process's uid. */
  uid?: number;
}

const NONCE = /^[0-9a-f]{12}$/;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/**
 * Make sure the root is usable, then create a fresh `<root>/<pid>-<nonce>` (0700) holding
 * `claude-settings.json` (0600) and `codex-notify.sh` (0700). An existing namespace directory
 * is never reused. Throws CaptureSetupError; on failure nothing new is left behind except a
 * root (and its parents) that did not exist before.
 */
export function installNamespace(root: string, opts: InstallOptions): Namespace {
  const { pid } = opts;
  if (!Number.isSafeInteger(pid) || pid <= 0) throw new RangeError(`invalid pid: ${pid}`);
  const nonce = opts.nonce ?? randomBytes(6).toString('hex');
  if (!NONCE.test(nonce)) throw new RangeError(`invalid nonce: ${JSON.stringify(nonce)}`);
  const uid = opts.uid ?? process.getuid?.();

  ensureRoot(root, uid);

  const dir = join(root, `${pid}-${nonce}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EEXIST') throw new CaptureSetupError(dir, 'already exists (a namespace is never reused)');
    throw new CaptureSetupError(dir, `cannot be created (${code ?? String(error)})`);
  }
  const ns: Namespace = {
    root,
    dir,
    settingsPath: join(dir, CLAUDE_SETTINGS_FILE),
    notifyPath: join(dir, CODEX_NOTIFY_FILE),
  };
  try {
    chmodCreatedDir(dir);
    writeNewFile(ns.settingsPath, CLAUDE_SETTINGS, CLAUDE_SETTINGS_MODE);
    writeNewFile(ns.notifyPath, CODEX_NOTIFY_SCRIPT, CODEX_NOTIFY_MODE);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    if (error instanceof CaptureSetupError) throw error;
    throw new CaptureSetupError(dir, `cannot be populated (${errnoCode(error) ?? String(error)})`);
  }
  return ns;
}

/**
 * Delete a run's capture file and its events file (task removed, or its rerun spawned); a
 * missing file is fine.
 */
export function deleteCaptureFile(path: string, namespaces: readonly string[]): void {
  if (!isCaptureFileIn(namespaces, path)) {
    throw new CaptureSetupError(path, "is not a capture file in this fleet's namespaces; refusing to delete it");
  }
  for (const file of [path, eventsPath(path)]) {
    try {
      unlinkSync(file);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error;
    }
  }
}

/** `fleetcom down` only: remove this namespace directory and what is in it, nothing else. */
export function removeNamespace(dir: string, root: string): void {
  if (!isNamespaceOf(root, dir)) {
    throw new CaptureSetupError(dir, `is not a capture namespace in ${root}; refusing to remove it`);
  }
  let stat: Stats;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return;
    throw error;
  }
  if (!stat.isDirectory()) throw new CaptureSetupError(dir, 'is not a directory; refusing to remove it');
  rmSync(dir, { recursive: true, force: true });
}

/** The root exists and is safe, or fleetcom creates it (and only then chmods it). */
function ensureRoot(root: string, uid: number | undefined): void {
  let stat: Stats;
  try {
    stat = lstatSync(root);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') {
      throw new CaptureSetupError(root, `cannot be inspected (${errnoCode(error) ?? String(error)})`);
    }
    let first: string | undefined;
    try {
      first = mkdirSync(root, { recursive: true, mode: 0o700 });
    } catch (mkdirError) {
      throw new CaptureSetupError(root, `cannot be created (${errnoCode(mkdirError) ?? String(mkdirError)})`);
    }
    // `first` is the topmost directory this call created; undefined if another process won
    // the race, in which case the root is someone else's and gets checked, not chmodded.
    try {
      if (first !== undefined) for (const created of createdChain(first, root)) chmodCreatedDir(created);
      stat = lstatSync(root);
    } catch (chmodError) {
      if (chmodError instanceof CaptureSetupError) throw chmodError;
      throw new CaptureSetupError(root, `cannot be secured (${errnoCode(chmodError) ?? String(chmodError)})`);
    }
  }
  const reason = unsafeReason(stat, uid);
  if (reason) throw new CaptureSetupError(root, `${reason}; refusing to use it (choose another with FLEETCOM_RUNTIME_DIR)`);
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

/** chmod 0700 through a no-follow handle, so a directory swapped for a symlink is not followed. */
function chmodCreatedDir(path: string): void {
  const fd = openSync(path, DIR_FLAGS);
  try {
    fchmodSync(fd, 0o700);
    if (!fstatSync(fd).isDirectory()) throw new CaptureSetupError(path, 'is not a directory');
  } finally {
    closeSync(fd);
  }
}

/** Create `path` exclusively, write `content`, and set `mode` explicitly (umask-proof). */
function writeNewFile(path: string, content: string, mode: number): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    const bytes = Buffer.from(content, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

function errnoCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}
