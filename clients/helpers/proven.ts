// What a run of the suite proved about each client, for `fleetcom explain` and README: each
// test notes what it saw a channel do (`proven(client, 'exit hint', '…')`) into
// reports/proven/<agent>@<version>.<file>.json (one file per test file and client, so files
// running in parallel never write the same one); clients/run.mjs merges them into
// src/harness/proven-clients.ts after a passing `--record` run.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { InstalledClient } from './clients.js';
import { recording } from './record.js';

const dir = fileURLToPath(new URL('../../reports/proven/', import.meta.url));

export interface ProvenNotes {
  agent: InstalledClient['agent'];
  version: string;
  node: string;
  channels: Record<string, string>;
}

/** Notes that `channel` did `what` on this client (kept only when recording). */
export function proven(client: InstalledClient, channel: string, what: string): void {
  if (!recording) return;
  const testFile = basename(expect.getState().testPath ?? 'unknown', '.test.ts');
  const file = `${dir}${client.agent}@${client.version}.${testFile}.json`;
  let notes: ProvenNotes = { agent: client.agent, version: client.version, node: client.nodeVersion, channels: {} };
  try {
    notes = JSON.parse(readFileSync(file, 'utf8')) as ProvenNotes;
  } catch {
    // the first note of this file and client
  }
  notes.channels[channel] = what;
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(notes, null, 2)}\n`);
}
