// Where capture namespaces live. The environment and platform come in as arguments and nothing
// here reads process.env; the home directory is os.homedir() unless the caller passes one.
import { homedir as osHomedir } from 'node:os';
import { posix, win32 } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

export interface CaptureRootInput {
  /** The supervisor's launching environment. */
  env: Env;
  /** The session directory as resolved (absolute, not canonicalised); feeds the discriminator. */
  sessionDir: string;
  platform?: NodeJS.Platform;
  homedir?: string;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/** 64-bit FNV-1a of the UTF-8 bytes of `text`, as 16 lowercase hex digits. */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
}

/**
 * The capture root: `FLEETCOM_RUNTIME_DIR` verbatim (no discriminator); otherwise the platform
 * runtime dir + `/fleetcom` (`$XDG_RUNTIME_DIR`, not on macOS or Windows) or else the platform
 * cache dir + `/run` (env-paths' `cache` for `fleetcom` with `suffix: ''`, i.e. `…/fleetcom/run`),
 * joined with `fnv1a64(sessionDir)`. Empty variables count as unset, as in env-paths.
 */
export function captureRoot(input: CaptureRootInput): string {
  const { env, sessionDir } = input;
  const platform = input.platform ?? process.platform;
  if (env.FLEETCOM_RUNTIME_DIR) return env.FLEETCOM_RUNTIME_DIR;
  const path = platform === 'win32' ? win32 : posix;
  const base =
    platform !== 'darwin' && platform !== 'win32' && env.XDG_RUNTIME_DIR
      ? path.join(env.XDG_RUNTIME_DIR, 'fleetcom')
      : path.join(cacheDir(env, platform, input.homedir ?? osHomedir()), 'run');
  return path.join(base, fnv1a64(sessionDir));
}

/** env-paths 4's `cache` for the name `fleetcom` (suffix ''), computed without process.env. */
export function cacheDir(env: Env, platform: NodeJS.Platform, homedir: string): string {
  if (platform === 'darwin') return posix.join(homedir, 'Library', 'Caches', 'fleetcom');
  if (platform === 'win32') {
    const localAppData = env.LOCALAPPDATA || win32.join(homedir, 'AppData', 'Local');
    return win32.join(localAppData, 'fleetcom', 'Cache');
  }
  return posix.join(env.XDG_CACHE_HOME || posix.join(homedir, '.cache'), 'fleetcom');
}
