// After a passing `npm run test:clients -- --record`: merges the suite's notes
// (reports/proven/*.json, see helpers/proven.ts) into src/harness/proven-clients.ts, which
// `fleetcom explain` shows (README and docs/agents.md name the versions; test/docs/docs.test.ts checks them). Plain ESM, run by clients/run.mjs.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const notesDir = fileURLToPath(new URL('../reports/proven/', import.meta.url));
const target = fileURLToPath(new URL('../src/harness/proven-clients.ts', import.meta.url));

export function clearNotes() {
  rmSync(notesDir, { recursive: true, force: true });
}

/**
 * The table as it is, for a partial record (named test files): their notes are added to it.
 * @returns {{ on: { date: string, tmux: string, platform: string }, clients: Array<{ agent: string, version: string, node: string, channels: Record<string, string> }> }}
 */
function currentTable() {
  const text = readFileSync(target, 'utf8');
  const on = /PROVEN_ON = (\{.*\}) as const;/.exec(text)?.[1];
  const list = /PROVEN_CLIENTS: readonly ProvenClient\[\] = (\[[\s\S]*\]);\n/.exec(text)?.[1];
  if (on === undefined || list === undefined) throw new Error(`${target}: not the table proven.mjs writes`);
  return { on: JSON.parse(on), clients: JSON.parse(list) };
}

/**
 * @param {{ partial?: boolean }} [opts] partial: a run of named files, whose notes are added to
 *   the table as it is (its date and tmux stay those of the last whole run); else the table is
 *   the run's notes alone.
 * @returns {string} the file written
 */
export function writeProven({ partial = false } = {}) {
  /** @type {Map<string, { agent: string, version: string, node: string, channels: Record<string, string> }>} */
  const clients = new Map();
  const kept = partial ? currentTable() : null;
  for (const c of kept?.clients ?? []) clients.set(`${c.agent}@${c.version}`, { ...c, channels: { ...c.channels } });
  for (const name of readdirSync(notesDir).filter((n) => n.endsWith('.json')).sort()) {
    const notes = JSON.parse(readFileSync(`${notesDir}${name}`, 'utf8'));
    const key = `${notes.agent}@${notes.version}`;
    const merged = clients.get(key) ?? { agent: notes.agent, version: notes.version, node: notes.node, channels: {} };
    Object.assign(merged.channels, notes.channels);
    clients.set(key, merged);
  }
  const tmux = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).stdout.trim();
  const list = [...clients.values()].map((c) => ({ ...c, channels: Object.fromEntries(Object.entries(c.channels).sort()) }));
  const text = `// Written by \`npm run test:clients -- --record\` (clients/proven.mjs) from what the real-client
// suite saw: the client versions fleetcom is proven against and what each channel did on them.
// Do not edit by hand; record again instead.
import type { HarnessName } from './names.js';

export interface ProvenClient {
  agent: HarnessName;
  version: string;
  /** The Node the client ran on. */
  node: string;
  channels: Readonly<Record<string, string>>;
}

export const PROVEN_ON = ${JSON.stringify(kept?.on ?? { date: new Date().toISOString().slice(0, 10), tmux, platform: `${process.platform} ${process.arch}` })} as const;

export const PROVEN_CLIENTS: readonly ProvenClient[] = ${JSON.stringify(list, null, 2)};
`;
  writeFileSync(target, text);
  return target;
}
