// The real Kilo CLI (clients/manifest.json) through fleetcom, offline against the mock API: one
// scenario that proves the whole round trip, through the opencode plugin fleetcom gives it
// (helpers/opencode-family.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { clientsOf } from './helpers/clients.js';
import { opencodeFamilyRoundTrip } from './helpers/opencode-family.js';
import { startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

describe.each(clientsOf('kilo'))('$agent $version under fleetcom', (client) => {
  it("captures the session through fleetcom's plugin, scrapes the hint, saves it, and load resumes it after the tmux server died", async () => {
    await opencodeFamilyRoundTrip(client, api, {
      dbVar: 'KILO_DB',
      configVar: 'KILO_CONFIG_CONTENT',
      // Like opencode, CPU-bound: 1:45 to its prompt at load 15 by hand; the round trip took
      // 287 s at load 18-20.
      startMs: 300_000,
      hintShape: '`kilo -s <id>` in its logo, under the title,',
    });
  }, 900_000);
});
