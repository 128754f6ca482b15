// The round trip of opencode and its fork Kilo, which fleetcom drives alike: fleetcom's plugin
// through the client's inline-config variable, the `<program> -s <id>` hint, and the session
// table of its SQLite database. Each client's file calls it with its own names.
import { expect } from 'vitest';
import { readSqliteTable } from '../../src/harness/index.js';
import type { InstalledClient } from './clients.js';
import { submit } from './drive.js';
import { proven } from './proven.js';
import { recordExit } from './record.js';
import { chatRequestHas, roundTrip } from './round-trip.js';
import { useClientWorld } from './world.js';
import type { MockApi } from '../mock-api.js';

export interface FamilyClient {
  /** The variable that names its database in the sandbox (OPENCODE_DB, KILO_DB). */
  dbVar: string;
  /** The variable fleetcom gives its plugin through (for the notes). */
  configVar: string;
  /** How long its start and a turn may take. */
  startMs: number;
  /** What its exit hint line holds besides `<program> -s <id>` (for the notes). */
  hintShape: string;
}

export async function opencodeFamilyRoundTrip(client: InstalledClient, api: MockApi, family: FamilyClient): Promise<void> {
  const started = Date.now();
  const program = client.agent;
  const w = await useClientWorld(client, api);
  const { exited, text, saved, resumed } = await roundTrip(w, program, {
    // The home screen's `Ask anything…` is not shown in a resumed session's view; the footer is.
    ready: 'ctrl+p commands',
    startMs: family.startMs,
    exit: (world, task) => submit(world.sb, task.paneId, '/exit'),
    requestHas: chatRequestHas,
  });
  const id = exited.conversationId!;
  expect(id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
  expect(text).toContain(`${program} -s ${id}`);
  expect(exited).toMatchObject({ idSource: 'exit-hint', resumeCommand: `${program} -s '${id}'` });
  proven(client, 'exit hint', `${family.hintShape} after a session exists; scraped`);
  const read = readSqliteTable(w.sb.env[family.dbVar]!, 'session');
  if (read.kind !== 'rows') throw new Error(`the database: ${JSON.stringify(read)}`);
  const row = read.rows.find((r) => r[read.columns.indexOf('id')] === id);
  expect(row?.[read.columns.indexOf('parent_id')]).toBeNull();
  expect(row?.[read.columns.indexOf('directory')]).toBe(w.project);
  proven(client, 'store', 'the session table of its SQLite database (WAL) read by fleetcom: id, no parent_id, directory = cwd');
  expect(saved).toEqual([`${program} -s '${id}'`]);
  expect(resumed).toMatchObject({ command: `${program} -s '${id}'`, conversationId: id, idSource: 'capture' });
  proven(client, 'capture', `fleetcom's plugin (${family.configVar}, merged over the user's config): session.created/updated of a parent-less session`);
  proven(client, 'resume', `save, tmux server killed, load: \`${program} -s <id>\` continues the session (the earlier turn is in the next request)`);
  await recordExit({ agent: client.agent, version: client.version, variant: '', expectedId: id, how: `bare \`${program}\` in a fleet (plugin given through ${family.configVar}), one message answered by the mock API, then /exit` }, text, w.sb.dir);
  process.stderr.write(`${program} round trip: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
