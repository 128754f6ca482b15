// Where the real clients live: one cache folder per client version and Node major, outside the
// project's dependencies: `${XDG_CACHE_HOME:-$HOME/.cache}/fleetcom-clients/<hash>`, the hash
// covering the package, its exact version, the Node major that installs it, the platform and
// the architecture (claude's postinstall picks a native binary). FLEETCOM_CLIENTS_CACHE
// overrides the parent folder. Plain ESM so that `node` runs it before anything is built;
// checked by clients/tsconfig.json (allowJs + checkJs).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * @typedef {'claude' | 'codex' | 'gemini' | 'opencode' | 'qwen' | 'kilo' | 'pi' | 'copilot'} Agent
 * @typedef {{ agent: Agent, package: string, version: string, bin: string, node: number, with?: string[] }} ClientPin
 *   version: exact, or "newest" (resolved at install time); with: packages installed beside it at
 *   the same version (opencode's plugin package, which opencode would otherwise fetch at start)
 * @typedef {ClientPin & { version: string, dir: string, binDir: string, nodeBin: string, nodeVersion: string }} InstalledClient
 *   what install.mjs prints (one JSON array) and the suite reads from FLEETCOM_CLIENTS
 */

export const manifestPath = new URL('./manifest.json', import.meta.url);
export const NEWEST = 'newest';
/** @type {readonly Agent[]} */
const AGENTS = ['claude', 'codex', 'gemini', 'opencode', 'qwen', 'kilo',
  'pi', 'copilot'];

/** @returns {ClientPin[]} */
export function readManifest() {
  const parsed = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const clients = parsed?.clients;
  if (!Array.isArray(clients) || clients.length === 0) throw new Error('clients/manifest.json: clients: needs a non-empty array');
  return clients.map((pin, i) => {
    const where = `clients/manifest.json: clients[${i}]`;
    if (!AGENTS.includes(pin?.agent)) throw new Error(`${where}.agent: needs one of ${AGENTS.join(', ')}`);
    for (const key of ['package', 'version', 'bin']) {
      if (typeof pin[key] !== 'string' || pin[key] === '') throw new Error(`${where}.${key}: needs a string`);
    }
    if (!Number.isInteger(pin.node) || pin.node < 18) throw new Error(`${where}.node: needs a Node major version`);
    const extra = pin.with ?? [];
    if (!Array.isArray(extra) || !extra.every((name) => typeof name === 'string' && name !== '')) throw new Error(`${where}.with: needs an array of package names`);
    return { agent: pin.agent, package: pin.package, version: pin.version, bin: pin.bin, node: pin.node, ...(extra.length > 0 ? { with: extra } : {}) };
  });
}

/** @param {ClientPin} pin  with an exact version */
export function pinHash(pin) {
  const parts = [pin.package, pin.version, pin.node, process.platform, process.arch];
  // Only a pin with companions hashes them, so the folders of the others stay where they are.
  const key = JSON.stringify(pin.with ? [...parts, pin.with] : parts);
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** @param {Readonly<Record<string, string | undefined>>} env */
export function cacheParent(env) {
  return env.FLEETCOM_CLIENTS_CACHE || join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'fleetcom-clients');
}

/** @param {Readonly<Record<string, string | undefined>>} env @param {ClientPin} pin  with an exact version */
export function cacheDir(env, pin) {
  return join(cacheParent(env), pinHash(pin));
}

/** @param {string} dir */
export function binDir(dir) {
  return join(dir, 'node_modules', '.bin');
}

/** The marker written last by a complete install: `{"package", "version", "node"}`. */
/** @param {string} dir */
export function markerPath(dir) {
  return join(dir, 'installed.json');
}

/** A label for messages and test titles: `claude 2.1.332 (Node 22)`. */
/** @param {{ agent: string, version: string, node: number }} c */
export function clientLabel(c) {
  return `${c.agent} ${c.version} (Node ${c.node})`;
}
