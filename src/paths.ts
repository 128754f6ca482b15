// Where the runtime files live (product.md §4), and the user's home. The environment is passed in.
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** `$HOME` of the given environment, else the account's home directory. */
export function userHome(env: Env): string {
  return env.HOME || homedir();
}

/** `$FLEETCOM_RUNTIME_DIR` verbatim; else `$XDG_RUNTIME_DIR/fleetcom`; else `<tmpdir>/fleetcom-<uid>`. */
export function runtimeDir(env: Env, uid: number, tmpdir: string): string {
  if (env.FLEETCOM_RUNTIME_DIR) return env.FLEETCOM_RUNTIME_DIR;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'fleetcom');
  return join(env.TMPDIR || tmpdir, `fleetcom-${uid}`);
}

export interface RuntimeFiles {
  dir: string;
  socket: string;
  lock: string;
  state: string;
}

export function runtimeFiles(dir: string): RuntimeFiles {
  return { dir, socket: join(dir, 'default.sock'), lock: join(dir, 'lock'), state: join(dir, 'state.json') };
}
