#!/usr/bin/env node
// `npm run test:clients [-- --record] [-- <vitest args>]`: the real-client contract suite.
// 1. installs (or reuses) the clients of manifest.json (install.mjs), each on its Node major;
// 2. re-runs vitest inside a private network namespace (`unshare -n`, loopback up), so the
//    clients, the mock API and the tmux servers the tests start reach nothing but 127.0.0.1.
// Exit codes: vitest's own (0 passed, 1 failed); 3 skipped: the clients cannot be installed;
// 4 skipped: no private network namespace here (needs root, unshare and ip). A skip prints
// its reason on stderr; nothing is run, so no report is written.
// --record also writes each client's exit text to test/fixtures/<agent>/ (see helpers/record.ts)
// and, when the run passed, what it proved to src/harness/proven-clients.ts (proven.mjs): the
// whole suite writes the table anew, a run of named files adds its notes to it.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clearNotes, writeProven } from './proven.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIP_INSTALL = 3;
const SKIP_NAMESPACE = 4;

/** @param {string} msg */
const say = (msg) => process.stderr.write(`clients: ${msg}\n`);

const args = process.argv.slice(2);
const record = args.includes('--record');
const vitestArgs = args.filter((a) => a !== '--record');

/** @returns {string | null} why a private network namespace cannot be made here, or null */
function namespaceProblem() {
  for (const tool of ['unshare', 'ip']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    if (found.status !== 0) return `${tool} is not installed (${tool === 'ip' ? 'iproute2' : 'util-linux'})`;
  }
  const probe = spawnSync('unshare', ['-n', '--', 'ip', 'link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  if (probe.status !== 0) return `unshare -n failed (root or user namespaces needed): ${(probe.stderr || probe.error?.message || '').trim()}`;
  return null;
}

const problem = namespaceProblem();
if (problem) {
  say(`skipping the real-client suite: no private network namespace: ${problem}`);
  process.exit(SKIP_NAMESPACE);
}

const install = spawnSync(process.execPath, [fileURLToPath(new URL('./install.mjs', import.meta.url))], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (install.status === SKIP_INSTALL) {
  say('skipping the real-client suite: the clients could not be installed (see above)');
  process.exit(SKIP_INSTALL);
}
if (install.status !== 0) {
  say(`install.mjs failed (exit ${install.status ?? install.signal})`);
  process.exit(1);
}
const clients = install.stdout.trim();

if (!existsSync(`${root}/dist/cli.js`)) {
  say('dist/cli.js is missing: run `npm run build` first (npm run test:clients does)');
  process.exit(1);
}

rmSync(`${root}/reports/clients.json`, { force: true });
clearNotes();
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const inner = 'ip link set lo up && exec "$0" "$@"';
const run = spawnSync(
  'unshare',
  ['-n', '--', 'sh', '-c', inner, process.execPath, vitest, 'run', '--config', 'clients/vitest.config.ts', ...vitestArgs],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FLEETCOM_CLIENTS: clients, FLEETCOM_RECORD: record ? '1' : '0' },
  },
);
// A run of named files adds what they proved to the table; a whole run writes it anew.
if (record && run.status === 0) say(`wrote ${writeProven({ partial: vitestArgs.length > 0 })}`);
process.exit(run.status ?? 1);
