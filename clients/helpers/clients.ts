// Where the installed real clients are (clients/install.mjs put them there; clients/run.mjs
// passes the folder as FLEETCOM_CLIENTS_DIR) and which versions the manifest pins.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { binDir, cacheDir, markerPath, readManifest } from '../cache.mjs';

export const manifest = readManifest();

export function clientsDir(): string {
  return process.env.FLEETCOM_CLIENTS_DIR || cacheDir(process.env, manifest);
}

export function clientsBin(): string {
  return binDir(clientsDir());
}

/** Throws unless install.mjs completed an install of the pinned versions. */
export function assertInstalled(): void {
  const dir = clientsDir();
  if (!existsSync(markerPath(dir)) || !existsSync(join(clientsBin(), 'claude')) || !existsSync(join(clientsBin(), 'codex'))) {
    throw new Error(`the real clients are not installed in ${dir}: run \`node clients/install.mjs\` (npm run test:clients does)`);
  }
}
