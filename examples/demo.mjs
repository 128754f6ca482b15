#!/usr/bin/env node
// `npm run demo`: a demo fleet from examples/demo.json on a private tmux server, with every
// home and runtime dir inside a fresh temp dir and the fake agents of integration/fixtures/bin
// first on PATH — so nothing you own (your tmux server, ~/.claude, ~/.codex) is touched.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'fleetcom-demo-'));
const home = join(dir, 'home');
mkdirSync(home, { recursive: true });
const socket = join(dir, 'tmux.sock');
const env = {
  ...process.env,
  HOME: home,
  XDG_RUNTIME_DIR: join(dir, 'run'),
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_CACHE_HOME: join(home, '.cache'),
  FLEETCOM_RUNTIME_DIR: join(dir, 'fleetcom-run'),
  FLEETCOM_CONFIG_DIR: join(home, '.config', 'fleetcom'),
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
  CODEX_HOME: join(home, '.codex'),
  GROK_HOME: join(home, '.grok'),
  PATH: `${join(repo, 'integration', 'fixtures', 'bin')}:${process.env.PATH ?? ''}`,
  SHELL: '/bin/sh',
  // The fake claude thinks for 3 s, so a message shows it working before it waits for you.
  FAKE_CLAUDE_REPLY_MS: '3000',
};
delete env.TMUX;
delete env.TMUX_PANE;

const interactive = process.stdin.isTTY && process.stdout.isTTY;
const cli = join(repo, 'dist', 'cli.js');
const args = [cli, 'up', '--tmux-socket', socket, '--tmux-session', 'demo', ...(interactive ? [] : ['--detach']), join(repo, 'examples', 'demo.json')];
const up = spawnSync(process.execPath, args, { env, stdio: 'inherit', cwd: repo });
if (up.status !== 0) process.exit(up.status ?? 1);

const envLine = `FLEETCOM_RUNTIME_DIR='${env.FLEETCOM_RUNTIME_DIR}' FLEETCOM_CONFIG_DIR='${env.FLEETCOM_CONFIG_DIR}' HOME='${home}'`;
process.stderr.write(`
The demo fleet runs on a private tmux server (everything lives in ${dir}).
  look at it:   tmux -S '${socket}' attach -t demo      (the fake agents answer any line; /exit ends one)
                type into claude: it works, then waits under "Needs you" with a bell; prefix N goes there
  list tasks:   ${envLine} node '${cli}' ls
  stop it:      ${envLine} node '${cli}' down && tmux -S '${socket}' kill-server; rm -rf '${dir}'
`);
