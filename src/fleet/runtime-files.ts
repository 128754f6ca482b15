// Where this fleet's runtime files and CLI live. Kept apart from run-fleet.ts so that the small
// commands (ls, run, kill, …) reach the control socket without loading the supervisor.
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Deps } from '../deps.js';
import { runtimeDir, runtimeFiles, type RuntimeFiles } from '../paths.js';
import type { CliPaths } from './tmux-commands.js';

export function cliPaths(): CliPaths {
  return { node: process.execPath, script: fileURLToPath(new URL('../cli.js', import.meta.url)) };
}

export function fleetRuntime(env: Deps['env']): RuntimeFiles {
  return runtimeFiles(runtimeDir(env, process.getuid?.() ?? 0, tmpdir()));
}
