#!/usr/bin/env node
// The entry: picks the command's run (commands/program.ts parses with commander), runs it and
// maps errors to exit codes.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processDeps, type Deps } from './deps.js';
import { errorMessage, FleetError, ReportedError } from './errors.js';

/**
 * `ls` and `ls --json`, which scripts and status bars call most, start without commander:
 * these exact argument lists leave commander nothing to parse (no other word, no option
 * value), and skipping its evaluation and the command table saves ~7 ms of CPU of the 30 ms
 * that a client command may take over `node -e 0` (README, Performance).
 */
function plainRun(argv: readonly string[], deps: Deps): (() => Promise<number>) | null {
  const [command, option, ...rest] = argv;
  if (command !== 'ls' || rest.length > 0 || (option !== undefined && option !== '--json')) return null;
  return async () => (await import('./commands/tasks.js')).runLs(option === undefined ? {} : { json: true }, deps);
}

/** Runs one command line; returns the exit code. The only catch in the program. */
export async function main(argv: readonly string[], deps: Deps = processDeps()): Promise<number> {
  try {
    const run = plainRun(argv, deps) ?? (await (await import('./commands/program.js')).parseCommandLine(argv, deps));
    return typeof run === 'number' ? run : await run();
  } catch (error) {
    return report(error, deps);
  }
}

function report(error: unknown, deps: Deps): number {
  if (deps.env.FLEETCOM_DEBUG === '1' && error instanceof Error) deps.stderr.write(`${error.stack}\n`);
  if (error instanceof ReportedError) return error.exitCode;
  // Every error fleetcom raises on purpose is a FleetError with its exit code; anything else
  // is a failure (1).
  const code = error instanceof FleetError ? error.exitCode : 1;
  deps.stderr.write(`fleetcom: ${errorMessage(error)}\n`);
  if (code === 2) deps.stderr.write(`try 'fleetcom --help'\n`);
  return code;
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
