// The real opencode (clients/manifest.json) through fleetcom, offline against the mock API:
// one scenario that proves the whole round trip (helpers/opencode-family.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { clientsOf } from './helpers/clients.js';
import { opencodeFamilyRoundTrip } from './helpers/opencode-family.js';
import { startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

describe.each(clientsOf('opencode'))('$agent $version under fleetcom', (client) => {
  it("captures the session through fleetcom's plugin, scrapes the Continue hint, saves it, and load resumes it after the tmux server died", async () => {
    await opencodeFamilyRoundTrip(client, api, {
      dbVar: 'OPENCODE_DB',
      configVar: 'OPENCODE_CONFIG_CONTENT',
      startMs: 180_000,
      hintShape: '`Continue  opencode -s <id>`',
    });
    // Two starts and two turns, each CPU-bound (measured: ~25 s of CPU to the prompt, ~26 s for
    // the first turn): ~2 min on 2 quiet cores, over 5 at load 20, 7 not enough at load 23.
  }, 600_000);
});
