// How a command's failure reaches the user: one line on stderr and the exit code its error
// carries, whichever part of the build threw it (errors.ts: isFleetError).
import type { Deps } from './deps.js';
import { errorMessage, isFleetError, isReported } from './errors.js';

function report(error: unknown, deps: Deps): number {
  if (deps.env.FLEETCOM_DEBUG === '1' && error instanceof Error) deps.stderr.write(`${error.stack}\n`);
  // Every error fleetcom raises on purpose is a FleetError with its exit code; anything else
  // is a failure (1). A ReportedError has been shown already.
  if (isReported(error)) return error.exitCode;
  const code = isFleetError(error) ? error.exitCode : 1;
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
