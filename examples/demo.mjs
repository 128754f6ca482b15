#!/usr/bin/env node
// `npm run demo`: a demo fleet from examples/demo.json on a private tmux server, with every
// home and runtime dir inside a fresh temp dir and the fake agents of integration/fixtures/bin
// first on PATH (demo-env.mjs) — so nothing you own is touched.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, demoEnv, recipe, repo } from './demo-env.mjs';

const dir = mkdtempSync(join(tmpdir(), 'fleetcom-demo-'));
const env = demoEnv(dir);
const socket = join(dir, 'tmux.sock');

const interactive = process.stdin.isTTY && process.stdout.isTTY;
const args = [cli, 'up', '--tmux-socket', socket, '--tmux-session', 'demo', ...(interactive ? [] : ['--detach']), recipe];
const up = spawnSync(process.execPath, args, { env, stdio: 'inherit', cwd: repo });
if (up.status !== 0) process.exit(up.status ?? 1);

const envLine = `FLEETCOM_RUNTIME_DIR='${env.FLEETCOM_RUNTIME_DIR}' FLEETCOM_CONFIG_DIR='${env.FLEETCOM_CONFIG_DIR}' HOME='${env.HOME}'`;
process.stderr.write(`
The demo fleet runs on a private tmux server (everything lives in ${dir}).
  look at it:   tmux -S '${socket}' attach -t demo      (the fake agents answer any line; /exit ends one)
                type into claude: it works, then waits under "Needs you" with a bell; prefix N goes there
  list tasks:   ${envLine} node '${cli}' ls
  stop it:      ${envLine} node '${cli}' down && tmux -S '${socket}' kill-server; rm -rf '${dir}'
`);
