// The real Kilo CLI (clients/manifest.json) through fleetcom, offline against the mock API:
// one scenario that proves the whole round trip, through the opencode plugin fleetcom gives it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSqliteTable } from '../src/harness/index.js';
import { clientsOf } from './helpers/clients.js';
import { submit } from './helpers/drive.js';
import { proven } from './helpers/proven.js';
import { recordExit } from './helpers/record.js';
import { roundTrip } from './helpers/round-trip.js';
import { useClientWorld } from './helpers/world.js';
import { startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

function chatRequestHas(body: unknown, text: string): boolean {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> } | null)?.messages ?? [];
  return messages.some((m) => m.role === 'user' && JSON.stringify(m.content ?? '').includes(text));
}

describe.each(clientsOf('kilo'))('$agent $version under fleetcom', (client) => {
  it("captures the session through fleetcom's plugin, scrapes the hint, saves it, and load resumes it after the tmux server died", async () => {
    const started = Date.now();
    const w = await useClientWorld(client, api);
    const { exited, text, saved, resumed } = await roundTrip(w, 'kilo', {
      // The footer shows on the home screen and in a resumed session alike.
      ready: 'ctrl+p commands',
      // Like opencode, CPU-bound: 1:45 to its prompt at load 15 (measured by hand).
      startMs: 300_000,
      exit: (world, task) => submit(world.sb, task.paneId, '/exit'),
      requestHas: chatRequestHas,
    });
    const id = exited.conversationId!;
    expect(id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(text).toContain(`kilo -s ${id}`);
    expect(exited).toMatchObject({ idSource: 'exit-hint', resumeCommand: `kilo -s '${id}'` });
    proven(client, 'exit hint', '`kilo -s <id>` in its logo, under the title, after a session exists; scraped');
    const read = readSqliteTable(w.sb.env.KILO_DB!, 'session');
    if (read.kind !== 'rows') throw new Error(`the database: ${JSON.stringify(read)}`);
    const row = read.rows.find((r) => r[read.columns.indexOf('id')] === id);
    expect(row?.[read.columns.indexOf('parent_id')]).toBeNull();
    expect(row?.[read.columns.indexOf('directory')]).toBe(w.project);
    proven(client, 'store', 'the session table of kilo.db (WAL) read by fleetcom: id, no parent_id, directory = cwd');
    expect(saved).toEqual([`kilo -s '${id}'`]);
    expect(resumed).toMatchObject({ command: `kilo -s '${id}'`, conversationId: id, idSource: 'capture' });
    proven(client, 'capture', "fleetcom's opencode plugin (KILO_CONFIG_CONTENT, merged over the user's config): session.created/updated of a parent-less session");
    proven(client, 'resume', 'save, tmux server killed, load: `kilo -s <id>` continues the session (the earlier turn is in the next request)');
    await recordExit({ agent: 'kilo', version: client.version, variant: '', expectedId: id, how: 'bare `kilo` in a fleet (plugin given through KILO_CONFIG_CONTENT), one message answered by the mock API, then /exit' }, text, w.sb.dir);
    process.stderr.write(`kilo round trip: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }, 900_000);
});
