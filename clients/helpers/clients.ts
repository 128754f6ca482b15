// The installed real clients: clients/install.mjs prints them as JSON and clients/run.mjs
// passes that on as FLEETCOM_CLIENTS. Every claude line of the manifest runs the claude
// scenarios; codex the codex ones.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { clientLabel, markerPath, type InstalledClient } from '../cache.mjs';

export type { InstalledClient };

export function installedClients(): InstalledClient[] {
  const raw = process.env.FLEETCOM_CLIENTS;
  if (!raw) throw new Error('FLEETCOM_CLIENTS is not set: run the suite with `npm run test:clients` (clients/run.mjs installs the clients)');
  const parsed = JSON.parse(raw) as InstalledClient[];
  if (!Array.isArray(parsed)) throw new Error('FLEETCOM_CLIENTS: not a JSON array of installed clients');
  return parsed;
}

/** The installed clients of one agent, in manifest order (for describe.each). */
export function clientsOf(agent: InstalledClient['agent']): InstalledClient[] {
  return installedClients().filter((c) => c.agent === agent);
}

/** Throws unless every client install.mjs reported is complete and has its binary. */
export function assertInstalled(): void {
  for (const c of installedClients()) {
    if (!existsSync(markerPath(c.dir)) || !existsSync(join(c.binDir, c.bin))) {
      throw new Error(`${clientLabel(c)} is not installed in ${c.dir}: run \`node clients/install.mjs\` (npm run test:clients does)`);
    }
  }
}

export { clientLabel };
