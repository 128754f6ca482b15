// Where the pinned real clients live: a cache folder outside the project's dependencies,
// `${XDG_CACHE_HOME:-$HOME/.cache}/fleetcom-clients/<hash>`, the hash covering the manifest,
// the platform and Node's major version (claude's postinstall picks a native binary).
// FLEETCOM_CLIENTS_CACHE overrides the parent folder. Plain ESM so that `node` runs it
// before anything is built; checked by clients/tsconfig.json (allowJs + checkJs).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * @typedef {{ package: string, version: string, bin: string }} ClientPin
 * @typedef {{ claude: ClientPin, codex: ClientPin }} Manifest
 */

export const manifestPath = new URL('./manifest.json', import.meta.url);

/** @returns {Manifest} */
export function readManifest() {
  const parsed = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const clients = parsed?.clients;
  for (const name of ['claude', 'codex']) {
    const pin = clients?.[name];
    if (typeof pin?.package !== 'string' || typeof pin?.version !== 'string' || typeof pin?.bin !== 'string') {
      throw new Error(`clients/manifest.json: clients.${name}: needs string package, version and bin`);
    }
  }
  return { claude: clients.claude, codex: clients.codex };
}

/** @param {Manifest} manifest */
export function manifestHash(manifest) {
  const key = JSON.stringify([manifest.claude, manifest.codex, process.platform, process.arch, process.versions.node.split('.')[0]]);
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/**
 * @param {Readonly<Record<string, string | undefined>>} env
 * @param {Manifest} manifest
 */
export function cacheDir(env, manifest) {
  const parent = env.FLEETCOM_CLIENTS_CACHE || join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'fleetcom-clients');
  return join(parent, manifestHash(manifest));
}

/** @param {string} dir */
export function binDir(dir) {
  return join(dir, 'node_modules', '.bin');
}

/** The marker written last by a complete install: `{"claude": "<version>", "codex": "<version>"}`. */
/** @param {string} dir */
export function markerPath(dir) {
  return join(dir, 'installed.json');
}
