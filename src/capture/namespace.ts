// The capture namespace `<root>/<pid>-<nonce>`: installing it safely, deleting a run's
// capture files in it, and removing it on `down` (what is named how: capture-names.ts).
// Only directories created here are ever chmodded, and nothing else under the root is touched.
import { randomBytes } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { errnoCode, FleetError } from '../errors.js';
import {
  makePrivateDir,
  removeDirTree,
  removeFile,
  safeDirProblem,
  UnsafeDirError,
  unsafeReason,
  writeNewFile,
} from '../fs-safety.js';
import {
  CLAUDE_SETTINGS,
  CLAUDE_SETTINGS_FILE,
  CLAUDE_SETTINGS_MODE,
  CODEX_NOTIFY_FILE,
  CODEX_NOTIFY_MODE,
  CODEX_NOTIFY_SCRIPT,
} from './assets.js';
import { eventsPath, isCaptureFileIn, isNamespaceOf } from './capture-names.js';
import { HARNESSES } from '../harness/index.js';

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
    makePrivateDir(dir);
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
    for (const asset of namespaceAssets()) writeNewFile(join(dir, asset.file), asset.content, asset.mode);
  } catch (error) {
    // Half a namespace is never left behind; a directory swapped for something else meanwhile
    // is not ours to remove, and the install's own failure is the one to report.
    try {
      removeDirTree(dir);
    } catch {}
    if (error instanceof CaptureSetupError) throw error;
    throw new CaptureSetupError(dir, `cannot be populated (${errnoCode(error) ?? String(error)})`);
  }
  return ns;
}

/**
 * Every file a namespace holds: section 3's two, then each harness's own (opencode's plugin),
 * each file once (opencode and Kilo share theirs).
 */
function namespaceAssets(): Array<{ file: string; content: string; mode: number }> {
  const assets = [
    { file: CLAUDE_SETTINGS_FILE, content: CLAUDE_SETTINGS, mode: CLAUDE_SETTINGS_MODE },
    { file: CODEX_NOTIFY_FILE, content: CODEX_NOTIFY_SCRIPT, mode: CODEX_NOTIFY_MODE },
    ...HARNESSES.flatMap((h) => h.assets),
  ];
  return assets.filter((asset, i) => assets.findIndex((other) => other.file === asset.file) === i);
}

/**
 * Brings back a namespace of this fleet that was removed under it (a tmp cleaner, systemd
 * removing /run/user/<uid> at the last logout) at the same path, with the same assets: running
 * agents keep its paths (codex runs codex-notify.sh from there, claude's hooks write their
 * capture and events files there). The root and the directory get the checks of an install; an
 * existing safe directory is used as it is and only missing assets are written. 'restored' when
 * anything was made. Throws CaptureSetupError.
 */
export function restoreNamespace(root: string, dir: string, uid: number | undefined = process.getuid?.()): 'intact' | 'restored' {
  if (!isNamespaceOf(root, dir)) throw new CaptureSetupError(dir, `is not a capture namespace in ${root}; refusing to restore it`);
  ensureRoot(root, uid);
  let made = false;
  try {
    makePrivateDir(dir);
    made = true;
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw new CaptureSetupError(dir, `cannot be created (${errnoCode(error) ?? String(error)})`);
  }
  const reason = unsafeReason(lstatSync(dir), uid);
  if (reason) throw new CaptureSetupError(dir, `${reason}; refusing to use it`);
  for (const { file, content, mode } of namespaceAssets()) {
    try {
      writeNewFile(join(dir, file), content, mode);
      made = true;
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw new CaptureSetupError(join(dir, file), `cannot be written (${errnoCode(error) ?? String(error)})`);
    }
  }
  return made ? 'restored' : 'intact';
}

/**
 * Delete a run's capture file and its events file (task removed, or its rerun spawned); a
 * missing file is fine.
 */
export function deleteCaptureFile(path: string, namespaces: readonly string[]): void {
  if (!isCaptureFileIn(namespaces, path)) {
    throw new CaptureSetupError(path, "is not a capture file in this fleet's namespaces; refusing to delete it");
  }
  for (const file of [path, eventsPath(path)]) removeFile(file);
}

/** `fleetcom down` only: remove this namespace directory and what is in it, nothing else. */
export function removeNamespace(dir: string, root: string): void {
  if (!isNamespaceOf(root, dir)) {
    throw new CaptureSetupError(dir, `is not a capture namespace in ${root}; refusing to remove it`);
  }
  try {
    removeDirTree(dir);
  } catch (error) {
    if (error instanceof UnsafeDirError) throw new CaptureSetupError(error.path, error.reason);
    throw error;
  }
}

/** The root exists and is safe, or fleetcom creates it (and only then chmods it). */
function ensureRoot(root: string, uid: number | undefined): void {
  let reason: string | null;
  try {
    reason = safeDirProblem(root, uid);
  } catch (error) {
    if (error instanceof UnsafeDirError) throw new CaptureSetupError(root, error.reason);
    throw error;
  }
  if (reason) throw new CaptureSetupError(root, `${reason}; refusing to use it (choose another with FLEETCOM_RUNTIME_DIR)`);
}
