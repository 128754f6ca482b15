#!/usr/bin/env node
// Installs the pinned real clients (clients/manifest.json) into the cache folder of
// clients/cache.mjs, or reuses a complete install there. Prints that folder on stdout.
//
// Exit codes: 0 ready; 3 the clients cannot be installed here (registry unreachable, npm
// failed, a binary does not run): the suite is to be skipped, not failed; 1 anything else.
// Claude's postinstall must run (with --ignore-scripts its binary is a stub), so scripts are
// forced on. The folder is complete only once installed.json is written, last.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { binDir, cacheDir, markerPath, readManifest } from './cache.mjs';

const CANNOT_INSTALL = 3;

/** @param {string} msg */
const say = (msg) => process.stderr.write(`clients: ${msg}\n`);

/** @param {string} dir @param {import('./cache.mjs').Manifest} manifest */
function versionsOf(dir, manifest) {
  /** @type {Record<string, string>} */
  const found = {};
  for (const [name, pin] of Object.entries(manifest)) {
    const bin = join(binDir(dir), pin.bin);
    const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const text = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
    if (r.status !== 0 || !text.includes(pin.version)) {
      return { ok: false, why: `${bin} --version: ${r.error ? r.error.message : `exit ${r.status}`}: ${text.slice(0, 300) || '(no output)'}` };
    }
    found[name] = pin.version;
  }
  return { ok: true, found };
}

/** @param {string} dir @param {import('./cache.mjs').Manifest} manifest */
function isComplete(dir, manifest) {
  try {
    const marker = JSON.parse(readFileSync(markerPath(dir), 'utf8'));
    return marker.claude === manifest.claude.version && marker.codex === manifest.codex.version;
  } catch {
    return false;
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

async function main() {
  const manifest = readManifest();
  const dir = cacheDir(process.env, manifest);
  const label = `${manifest.claude.package}@${manifest.claude.version} and ${manifest.codex.package}@${manifest.codex.version}`;
  if (isComplete(dir, manifest)) {
    say(`using ${label} in ${dir}`);
    process.stdout.write(`${dir}\n`);
    return 0;
  }
  mkdirSync(dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  await acquire(lock);
  try {
    if (isComplete(dir, manifest)) {
      say(`using ${label} in ${dir} (installed meanwhile)`);
      process.stdout.write(`${dir}\n`);
      return 0;
    }
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const dependencies = { [manifest.claude.package]: manifest.claude.version, [manifest.codex.package]: manifest.codex.version };
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'fleetcom-clients', private: true, dependencies }, null, 2)}\n`);
    say(`installing ${label} into ${dir} (about 660 MB, tens of seconds)`);
    const started = Date.now();
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--ignore-scripts=false', '--loglevel=error'], {
      cwd: dir,
      // stdout is data: npm's chatter goes to stderr.
      stdio: ['ignore', 2, 2],
      timeout: 15 * 60_000,
    });
    if (r.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      say(`cannot install ${label}: npm install ${r.error ? r.error.message : `exited ${r.status ?? r.signal}`}`);
      return CANNOT_INSTALL;
    }
    const check = versionsOf(dir, manifest);
    if (!check.ok) {
      rmSync(dir, { recursive: true, force: true });
      say(`installed ${label} but a client does not run: ${check.why}`);
      return CANNOT_INSTALL;
    }
    writeFileSync(markerPath(dir), `${JSON.stringify(check.found)}\n`);
    say(`installed ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    process.stdout.write(`${dir}\n`);
    return 0;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    say(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
