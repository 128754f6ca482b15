#!/usr/bin/env node
// Installs the real clients of clients/manifest.json, each into its own cache folder
// (clients/cache.mjs) with the Node major it needs (scripts/node-runtime.mjs), or reuses a
// complete install there. "newest" is asked of the registry (`npm view <package> version`).
// Prints one JSON array of InstalledClient on stdout; says on stderr which versions it found.
//
// Exit codes: 0 ready; 3 the clients cannot be installed here (registry unreachable, npm
// failed, no Node of the major needed, a binary does not run): the suite is to be skipped, not
// failed; 1 anything else. Claude's postinstall must run (with --ignore-scripts its binary is a
// stub), so scripts are forced on. A folder is complete only once installed.json is written, last.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { nodeBinary } from '../scripts/node-runtime.mjs';
import { binDir, cacheDir, clientLabel, markerPath, NEWEST, readManifest } from './cache.mjs';

const CANNOT_INSTALL = 3;

class CannotInstall extends Error {}

/** @param {string} msg */
const say = (msg) => process.stderr.write(`clients: ${msg}\n`);

/** @param {string} nodeBin */
function envWithNode(nodeBin) {
  // npm, claude's postinstall and the clients themselves run on this Node.
  return { ...process.env, PATH: `${dirname(nodeBin)}${delimiter}${process.env.PATH ?? ''}` };
}

/** @param {import('./cache.mjs').ClientPin} pin @param {string} nodeBin */
function resolveVersion(pin, nodeBin) {
  if (pin.version !== NEWEST) return pin.version;
  const r = spawnSync('npm', ['view', pin.package, 'version'], { encoding: 'utf8', timeout: 120_000, env: envWithNode(nodeBin) });
  const version = (r.stdout ?? '').trim();
  if (r.status !== 0 || !/^\d+\.\d+\.\d+\S*$/.test(version)) {
    throw new CannotInstall(`cannot ask the registry for the newest ${pin.package}: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim().slice(0, 300)}`);
  }
  return version;
}

/** @param {string} dir @param {import('./cache.mjs').ClientPin} pin */
function isComplete(dir, pin) {
  try {
    const marker = JSON.parse(readFileSync(markerPath(dir), 'utf8'));
    return marker.package === pin.package && marker.version === pin.version && marker.node === pin.node;
  } catch {
    return false;
  }
}

/** @param {string} dir @param {import('./cache.mjs').ClientPin} pin @param {string} nodeBin */
function checkRuns(dir, pin, nodeBin) {
  const bin = join(binDir(dir), pin.bin);
  // copilot self-extracts 235 MB at its first start: into the install folder, where every
  // world of the suite points COPILOT_PKG_CACHE_HOME (clients/helpers/world.ts), not into HOME.
  const own = pin.agent === 'copilot' ? { COPILOT_PKG_CACHE_HOME: join(dir, 'copilot-pkg'), COPILOT_AUTO_UPDATE: 'false' } : {};
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'], env: { ...envWithNode(nodeBin), ...own } });
  const text = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
  if (r.status !== 0 || !text.includes(pin.version)) {
    throw new CannotInstall(`${bin} --version: ${r.error ? r.error.message : `exit ${r.status}`}: ${text.slice(0, 300) || '(no output)'}`);
  }
}

/** One installer at a time per folder: a lock dir holding the owner's pid; a dead owner's lock is taken over. */
/** @param {string} lock */
async function acquire(lock) {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch (e) {
      if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') throw e;
    }
    const pid = Number(readFileSync(join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }));
    if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another install (pid ${pid}) holds ${lock}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
  }
}

/**
 * @param {import('./cache.mjs').ClientPin} wanted
 * @returns {Promise<import('./cache.mjs').InstalledClient>}
 */
async function install(wanted) {
  let nodeBin;
  try {
    nodeBin = nodeBinary(wanted.node);
  } catch (e) {
    throw new CannotInstall(`no Node ${wanted.node} for ${wanted.package}: ${e instanceof Error ? e.message : e}`);
  }
  const nodeVersion = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const pin = { ...wanted, version: resolveVersion(wanted, nodeBin) };
  const dir = cacheDir(process.env, pin);
  const found = { ...pin, dir, binDir: binDir(dir), nodeBin, nodeVersion };
  const label = `${pin.package}@${pin.version} on Node ${nodeVersion}${wanted.version === NEWEST ? ' (the newest)' : ''}`;
  if (isComplete(dir, pin)) {
    say(`using ${label} in ${dir}`);
    return found;
  }
  mkdirSync(dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  await acquire(lock);
  try {
    if (isComplete(dir, pin)) {
      say(`using ${label} in ${dir} (installed meanwhile)`);
      return found;
    }
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'fleetcom-clients', private: true, dependencies: { [pin.package]: pin.version, ...Object.fromEntries((pin.with ?? []).map((name) => [name, pin.version])) } }, null, 2)}\n`);
    say(`installing ${label} into ${dir} (hundreds of MB, tens of seconds)`);
    const started = Date.now();
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts=false', '--loglevel=error'], {
      cwd: dir,
      // stdout is data: npm's chatter goes to stderr.
      stdio: ['ignore', 2, 2],
      timeout: 15 * 60_000,
      env: envWithNode(nodeBin),
    });
    if (r.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new CannotInstall(`npm install ${pin.package}@${pin.version} ${r.error ? r.error.message : `exited ${r.status ?? r.signal}`}`);
    }
    try {
      checkRuns(dir, pin, nodeBin);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    writeFileSync(markerPath(dir), `${JSON.stringify({ package: pin.package, version: pin.version, node: pin.node, nodeVersion })}\n`);
    say(`installed ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return found;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function main() {
  /** @type {import('./cache.mjs').InstalledClient[]} */
  const installed = [];
  for (const pin of readManifest()) installed.push(await install(pin));
  say(`ready: ${installed.map(clientLabel).join(', ')}`);
  process.stdout.write(`${JSON.stringify(installed)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    say(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof CannotInstall ? CANNOT_INSTALL : 1);
  },
);
