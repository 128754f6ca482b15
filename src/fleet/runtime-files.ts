// Where this fleet's CLI lives, for the commands tmux runs (the rerun key, the hooks). Kept apart
// from run-fleet.ts so that the small commands reach it without loading the supervisor.
import { fileURLToPath } from 'node:url';
import type { CliPaths } from './tmux/tmux-commands.js';

export function cliPaths(): CliPaths {
  return { node: process.execPath, script: fileURLToPath(new URL('../cli.js', import.meta.url)) };
}
