// How a command's failure reaches the user: one line on stderr and the exit code its error
// carries. Shared by the entry and the `ls` bundle (ls-client.ts), which has its own copy of
// the error classes and so must judge its errors itself.
import type { Deps } from './deps.js';
import { errorMessage, FleetError, ReportedError } from './errors.js';

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

/** Runs a command, turning what it throws into its message and exit code. */
export async function reporting(run: () => Promise<number>, deps: Deps): Promise<number> {
  try {
    return await run();
  } catch (error) {
    return report(error, deps);
  }
}
