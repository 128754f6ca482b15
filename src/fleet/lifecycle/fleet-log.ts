// The supervisor's log: every line stamped with the clock time, shown in the user interface
// when there is one, else written to stderr.
import type { Deps } from '../../deps.js';

/** Log lines stamped with the clock time; FLEETCOM_LOG_MS=1 puts epoch ms first (npm run bench reads them). */
export function fleetLog(deps: Deps, env: Record<string, string>, toUi: (line: string) => boolean): (line: string) => void {
  const logMs = env.FLEETCOM_LOG_MS === '1';
  return (line) => {
    const now = deps.now();
    const stamped = `${logMs ? `${now} ` : ''}${new Date(now).toISOString().slice(11, 19)} ${line}`;
    if (!toUi(stamped)) deps.stderr.write(`${stamped}\n`);
  };
}
