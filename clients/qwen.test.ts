// The real qwen-code (clients/manifest.json, Node 22) through fleetcom, offline against the
// mock API: one scenario that proves the whole round trip (see helpers/round-trip.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qwenTranscript, qwenTranscriptHasUser } from '../src/harness/index.js';
import { clientsOf } from './helpers/clients.js';
import { pressTwiceUntil } from './helpers/drive.js';
import { proven } from './helpers/proven.js';
import { recordExit } from './helpers/record.js';
import { chatRequestHas, roundTrip } from './helpers/round-trip.js';
import { useClientWorld } from './helpers/world.js';
import { startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

/** qwen's empty input box. */
const PLACEHOLDER = 'Type your message';

describe.each(clientsOf('qwen'))('$agent $version under fleetcom', (client) => {
  it('pins a bare qwen, scrapes its hint, saves it, and after the tmux server died load resumes the same conversation', async () => {
    const started = Date.now();
    const w = await useClientWorld(client, api);
    const { exited, text, saved, resumed } = await roundTrip(w, 'qwen', {
      ready: PLACEHOLDER,
      submitted: (text) => text.includes(PLACEHOLDER),
      // Ctrl-C twice (the second while `Press Ctrl+C again to exit.` shows, 1 s) exits with the hint.
      exit: (world, task) => pressTwiceUntil(world.sb, task.paneId, 'C-c', 'Press Ctrl+C again to exit.', 'To continue this session, run'),
      requestHas: chatRequestHas,
    });
    const id = exited.conversationId!;
    expect(text).toContain(`qwen --resume ${id}`);
    expect(exited).toMatchObject({ idSource: 'exit-hint', resumeCommand: `qwen --resume '${id}'` });
    proven(client, 'pin', '`--session-id <uuid>` honoured; the transcript appears at the first message');
    proven(client, 'exit hint', '`To continue this session, run` ⏎ `qwen --resume <id>` at Ctrl-C twice, after a message only; scraped');
    const home = w.sb.env.QWEN_HOME!;
    expect(qwenTranscriptHasUser(home, w.project, id), qwenTranscript(home, w.project, id)).toBe(true);
    proven(client, 'store', 'projects/<cwd slug>/chats/<id>.jsonl under QWEN_HOME, a `user` record of the session with text');
    expect(saved).toEqual([`qwen --resume '${id}'`]);
    expect(resumed).toMatchObject({ command: `qwen --resume '${id}'`, conversationId: id });
    proven(client, 'resume', 'save, tmux server killed, load: `qwen --resume <id>` continues the conversation (the earlier turn is in the next request)');
    await recordExit({ agent: 'qwen', version: client.version, variant: '', expectedId: id, how: 'bare `qwen` in a fleet (pinned with --session-id), one message answered by the mock API, then Ctrl-C twice' }, text, w.sb.dir);
    process.stderr.write(`qwen round trip: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });
});
