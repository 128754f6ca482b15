// The real pi (clients/manifest.json, Node 22) through fleetcom, offline against the mock API's
// chat completions: the whole round trip (helpers/round-trip.ts), with fleetcom's extension
// heard while it runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { piSessionFiles } from '../src/harness/index.js';
import { clientsOf } from './helpers/clients.js';
import { pressKeys } from './helpers/drive.js';
import { waitTask } from './helpers/poll.js';
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

describe.each(clientsOf('pi'))('$agent $version under fleetcom', (client) => {
  it('pins a bare pi, hears its extension, scrapes its hint, saves it, and after the tmux server died load resumes the same conversation', async () => {
    const started = Date.now();
    let captured: string | null = null;
    const w = await useClientWorld(client, api);
    const { exited, text, saved, resumed, fresh } = await roundTrip(w, 'pi', {
      // The footer names the model once the composer is up (a resumed session's too).
      ready: 'mock-model',
      afterFirstTurn: async (world, task) => {
        const heard = await waitTask(world.fleet, task.id, (t) => t.idSource === 'capture' && t.attention === 'waiting', 'the extension: the session captured, waiting after the turn');
        captured = heard.conversationId;
        // The end of the turn names its session in the capture file too (kept across a sweep).
        const runtime = world.sb.env.FLEETCOM_RUNTIME_DIR!;
        const capture = readdirSync(runtime, { recursive: true }).map(String).find((f) => f.endsWith(`task-${task.id}-0.json`));
        expect(capture, `task ${task.id}'s capture file under ${runtime}`).toBeDefined();
        const lines = readFileSync(join(runtime, capture!), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; id: string });
        expect(lines.map((l) => l.type)).toEqual(['session_start', 'turn']);
        expect(lines.every((l) => l.id === captured)).toBe(true);
      },
      // Ctrl-D on an empty composer quits (measured: one press, exit 0, the hint printed).
      exit: (world, task) => pressKeys(world.sb, task.paneId, 'C-d'),
      requestHas: chatRequestHas,
    });
    const id = exited.conversationId!;
    expect(captured, 'the id heard while it ran is the one its hint names').toBe(id);
    expect(text).toContain(`To resume this session:\npi --session ${id}`);
    expect(exited).toMatchObject({ idSource: 'exit-hint', resumeCommand: `pi --session '${id}'` });
    proven(client, 'pin', '`--session-id <uuid>` honoured (a new one is created under that id); the session file appears at the first message');
    proven(client, 'capture', "fleetcom's extension (`-e <ns>/pi-extension.js`): session_start names the session; agent_start/agent_settled give working and waiting");
    proven(client, 'exit hint', '`To resume this session:` / `pi --session <id>` at Ctrl-D after a message; scraped');
    expect(piSessionFiles(w.sb.env.PI_CODING_AGENT_DIR!, w.project, id)).toHaveLength(1);
    proven(client, 'store', '<PI_CODING_AGENT_DIR>/sessions/--<cwd>--/<time>_<id>.jsonl, header `{"type":"session","id"}`; counts with a user message');
    expect(saved).toEqual([`pi --session '${id}'`]);
    expect(resumed).toMatchObject({ command: `pi --session '${id}'`, conversationId: id });
    await waitTask(fresh, resumed.id, (t) => t.idSource === 'capture', 'the resumed session heard from the extension');
    proven(client, 'resume', 'save, tmux server killed, load: `pi --session <id>` continues the conversation (the earlier turn is in the next request)');
    await recordExit({ agent: 'pi', version: client.version, variant: '', expectedId: id, how: "bare `pi` in a fleet (pinned with --session-id, fleetcom's extension), one message answered by the mock API, then Ctrl-D" }, text, w.sb.dir);
    console.log(`pi round trip: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
