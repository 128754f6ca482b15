// The real gemini-cli (clients/manifest.json) through fleetcom, offline against the mock API:
// one scenario that proves the whole round trip (see helpers/round-trip.ts).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiSessionFiles } from '../src/harness/index.js';
import { clientsOf } from './helpers/clients.js';
import { pressKeys, submit } from './helpers/drive.js';
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

/** Whether a Gemini request's `contents` hold `text` in a user turn. */
function geminiRequestHas(body: unknown, text: string): boolean {
  const contents = (body as { contents?: Array<{ role?: string; parts?: Array<{ text?: string }> }> } | null)?.contents ?? [];
  return contents.some((c) => c.role === 'user' && (c.parts ?? []).some((p) => (p.text ?? '').includes(text)));
}

describe.each(clientsOf('gemini'))('$agent $version under fleetcom', (client) => {
  it('pins a bare gemini, scrapes its hint, saves it, and after the tmux server died load resumes the same conversation', async () => {
    const w = await useClientWorld(client, api);
    const { exited, text, saved, resumed } = await roundTrip(w, 'gemini', {
      ready: 'Type your message',
      exit: async (world, task) => {
        await submit(world.sb, task.paneId, '/quit');
        // gemini completes slash commands: a second Enter runs one its menu still holds.
        await pressKeys(world.sb, task.paneId, 'Enter').catch(() => undefined);
      },
      requestHas: geminiRequestHas,
    });
    const id = exited.conversationId!;
    expect(text).toContain(`gemini --resume ${id}`);
    expect(exited).toMatchObject({ idSource: 'exit-hint', resumeCommand: `gemini --resume '${id}'` });
    proven(client, 'pin', '`--session-id <uuid>` honoured; the session file appears at the first message');
    proven(client, 'exit hint', '`To resume this session: gemini --resume <id>` (also with no message, when no file exists: not counted); scraped');
    const home = w.sb.env.GEMINI_CLI_HOME!;
    expect(geminiSessionFiles(home, w.project, id).length).toBeGreaterThan(0);
    proven(client, 'store', 'session-<time>-<id8>.jsonl under .gemini/tmp/<project>/chats/, first record sessionId + projectHash; counts with a typed message');
    expect(saved).toEqual([`gemini --resume '${id}'`]);
    expect(resumed).toMatchObject({ command: `gemini --resume '${id}'`, conversationId: id });
    proven(client, 'resume', 'save, tmux server killed, load: `gemini --resume <id>` continues the conversation (the earlier turn is in the next request)');
    await recordExit({ agent: 'gemini', version: client.version, variant: '', expectedId: id, how: 'bare `gemini` in a fleet (pinned with --session-id), one message answered by the mock API, then /quit' }, text, w.sb.dir);
    expect(readdirSync(join(home, '.gemini', 'tmp')).length).toBeGreaterThan(0);
  });
});
