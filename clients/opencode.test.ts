// The real opencode (clients/manifest.json) through fleetcom, offline against the mock API:
// one scenario that proves the whole round trip (opencode takes ~20 s a turn on 2 cores).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSqliteTable } from '../src/harness/index.js';
import { clientsOf } from './helpers/clients.js';
import { submit } from './helpers/drive.js';
import { proven } from './helpers/proven.js';
import { recordExit } from './helpers/record.js';
import { roundTrip } from './helpers/round-trip.js';
import { useClientWorld } from './helpers/world.js';
import { chatRequestHas, startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

describe.each(clientsOf('opencode'))('$agent $version under fleetcom', (client) => {
  it("captures the session through fleetcom's plugin, scrapes the Continue hint, saves it, and load resumes it after the tmux server died", async () => {
    const w = await useClientWorld(client, api);
    const { exited, text, saved, resumed } = await roundTrip(w, 'opencode', {
      // The home screen's `Ask anything…` is not shown in a resumed session's view; the footer is.
      ready: 'ctrl+p commands',
      startMs: 180_000,
      exit: (world, task) => submit(world.sb, task.paneId, '/exit'),
      requestHas: chatRequestHas,
    });
    const id = exited.conversationId!;
    expect(id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(text).toContain(`opencode -s ${id}`);
    expect(exited).toMatchObject({ idSource: 'exit-hint', resumeCommand: `opencode -s '${id}'` });
    proven(client, 'exit hint', '`Continue  opencode -s <id>` after a session exists; scraped');
    const read = readSqliteTable(w.sb.env.OPENCODE_DB!, 'session');
    if (read.kind !== 'rows') throw new Error(`the database: ${JSON.stringify(read)}`);
    const row = read.rows.find((r) => r[read.columns.indexOf('id')] === id);
    expect(row?.[read.columns.indexOf('parent_id')]).toBeNull();
    expect(row?.[read.columns.indexOf('directory')]).toBe(w.project);
    proven(client, 'store', 'the session table of its SQLite database (WAL) read by fleetcom: id, no parent_id, directory = cwd');
    expect(saved).toEqual([`opencode -s '${id}'`]);
    expect(resumed).toMatchObject({ command: `opencode -s '${id}'`, conversationId: id, idSource: 'capture' });
    proven(client, 'capture', "fleetcom's plugin (OPENCODE_CONFIG_CONTENT, merged over the user's config): session.created/updated of a parent-less session");
    proven(client, 'resume', 'save, tmux server killed, load: `opencode -s <id>` continues the session (the earlier turn is in the next request)');
    await recordExit({ agent: 'opencode', version: client.version, variant: '', expectedId: id, how: 'bare `opencode` in a fleet (plugin given through OPENCODE_CONFIG_CONTENT), one message answered by the mock API, then /exit' }, text, w.sb.dir);
    // Two starts and two turns, each CPU-bound (measured: ~25 s of CPU to the prompt, ~26 s for
    // the first turn): ~2 min on 2 quiet cores, over 5 at load 20, 7 not enough at load 23.
  }, 600_000);
});
