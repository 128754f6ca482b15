#!/usr/bin/env node
// The entry: picks the command's run (commands/program.ts parses with commander), runs it and
// maps errors to exit codes.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processDeps, type Deps } from './deps.js';
import { reporting } from './report.js';

/**
 * `ls` and `ls --json`, which scripts and status bars call most, start without commander:
 * these exact argument lists leave commander nothing to parse (no other word, no option
 * value), and skipping its evaluation and the command table saves ~7 ms of CPU of the 30 ms
 * that a client command may take over `node -e 0` (docs/performance.md).
 */
function plainRun(argv: readonly string[], deps: Deps): (() => Promise<number>) | null {
  const [command, option, ...rest] = argv;
  if (command !== 'ls' || rest.length > 0 || (option !== undefined && option !== '--json')) return null;
  return async () => (await import('./ls-client.js')).runPlainLs(option !== undefined, deps);
}

/** Runs one command line; returns the exit code. The only catch in the program but ls-client.ts's. */
export function main(argv: readonly string[], deps: Deps = processDeps()): Promise<number> {
  return reporting(async () => {
    const run = plainRun(argv, deps) ?? (await (await import('./commands/program.js')).parseCommandLine(argv, deps));
    return typeof run === 'number' ? run : await run();
  }, deps);
}

function isEntry(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  process.exitCode = await main(process.argv.slice(2));
}
