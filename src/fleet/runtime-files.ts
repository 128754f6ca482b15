// Where this fleet's CLI lives, for the commands tmux runs (the rerun key, the hooks): the bin,
// dist/cli.cjs (scripts/bundle.mjs; from dist/chunks/ and dist/fleet/ alike). Kept apart
// from run-fleet.ts so that the small commands reach it without loading the supervisor.
import { fileURLToPath } from 'node:url';
import type { CliPaths } from './tmux/tmux-commands.js';

export function cliPaths(): CliPaths {
  return { node: process.execPath, script: fileURLToPath(new URL('../cli.cjs', import.meta.url)) };
}
