// The real GitHub Copilot CLI (clients/manifest.json; its own binary) through fleetcom, offline
// in BYOK mode against the mock API's chat completions: the whole round trip
// (helpers/round-trip.ts), with fleetcom's plugin hooks heard while it runs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copilotSessionHasUser } from '../src/harness/index.js';
import { clientsOf } from './helpers/clients.js';
import { pressKeys, submit, waitExited, waitForText } from './helpers/drive.js';
import { waitTask } from './helpers/poll.js';
import { proven } from './helpers/proven.js';
import { recordExit } from './helpers/record.js';
import { roundTrip } from './helpers/round-trip.js';
import { useClientWorld } from './helpers/world.js';
import { chatRequestHas, DELEGATE_MARK, startMockApi, TOOL_CALL_MARK, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

describe.each(clientsOf('copilot'))('$agent $version under fleetcom', (client) => {
  it('pins a bare copilot, hears its hooks through a plugin directory, scrapes its hint, saves it, and after the tmux server died load resumes the same conversation', async () => {
    const started = Date.now();
    let captured: string | null = null;
    const w = await useClientWorld(client, api);
    const home = w.sb.env.COPILOT_HOME!;
    const { exited, text, saved, resumed, fresh } = await roundTrip(w, 'copilot', {
      // The idle footer (`/ commands · ? help · …`), in a fresh and a resumed session alike.
      ready: '? help',
      startMs: 120_000,
      afterFirstTurn: async (world, task) => {
        const heard = await waitTask(world.fleet, task.id, (t) => t.idSource === 'capture' && t.attention === 'waiting', 'the hooks: SessionStart captured, Stop waiting');
        captured = heard.conversationId;
        // The session directory exists from the start: the pin is copilot's own id.
        expect(existsSync(join(home, 'session-state', captured ?? '-'))).toBe(true);
      },
      // Ctrl-D on an empty prompt quits (measured: one press, exit 0, the summary box).
      exit: (world, task) => pressKeys(world.sb, task.paneId, 'C-d'),
      requestHas: chatRequestHas,
    });
    const id = exited.conversationId!;
    expect(captured, 'the id heard while it ran is the one its hint names').toBe(id);
    expect(text).toContain(`copilot --resume=${id}`);
    expect(exited).toMatchObject({ idSource: 'exit-hint', resumeCommand: `copilot --resume '${id}'` });
    proven(client, 'pin', '`--session-id <uuid>` honoured: `session-state/<id>/` at start, `events.jsonl` at the first message');
    proven(client, 'capture', "fleetcom's plugin (`--plugin-dir <ns>`): SessionStart (`session_id`, at the first message) captured; UserPromptSubmit/Stop give working and waiting");
    proven(client, 'exit hint', '`Resume     copilot --resume=<id>` in the summary box at Ctrl-D after a message; scraped');
    expect(copilotSessionHasUser(home, id)).toBe(true);
    proven(client, 'store', '<COPILOT_HOME>/session-state/<id>/events.jsonl; counts with a `user.message` record');
    expect(saved).toEqual([`copilot --resume '${id}'`]);
    expect(resumed).toMatchObject({ command: `copilot --resume '${id}'`, conversationId: id });
    await waitTask(fresh, resumed.id, (t) => t.idSource === 'capture', 'the resumed session heard from the hooks');
    proven(client, 'resume', 'save, tmux server killed, load: `copilot --resume <id>` continues the conversation (the earlier turn is in the next request)');
    await recordExit({ agent: 'copilot', version: client.version, variant: '', expectedId: id, how: "bare `copilot` in a fleet (pinned with --session-id, fleetcom's plugin directory), one message answered by the mock API, then Ctrl-D" }, text, w.sb.dir);
    console.log(`copilot round trip: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  it("reports its permission prompt, and never takes a subagent's hooks for the task's", async () => {
    const started = Date.now();
    const w = await useClientWorld(client, api);
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'copilot');
    expect(r.exitCode, r.stderr).toBe(0);
    const task = await w.fleet.task(r.stdout.trim());
    await waitForText(w.sb, task.paneId, '? help', 120_000);
    // The mock answers with a call of copilot's bash tool: copilot asks before running it.
    await submit(w.sb, task.paneId, `please ${TOOL_CALL_MARK} now`);
    await waitForText(w.sb, task.paneId, 'Do you want to run this command?', 60_000);
    await waitTask(w.fleet, task.id, (t) => t.attention === 'permission', 'permission from the Notification hook');
    await pressKeys(w.sb, task.paneId, 'Enter');
    const done = await waitTask(w.fleet, task.id, (t) => t.attention === 'waiting' && t.idSource === 'capture', 'waiting after the tool ran');
    const id = done.conversationId!;
    proven(client, 'attention', 'plugin hooks: UserPromptSubmit → working, Stop → waiting, Notification `permission_prompt` (its session named `sessionId`) → permission');
    // The mock answers with a call of copilot's task tool: a subagent runs inside the session,
    // its UserPromptSubmit and Stop naming its own agent_id (and parent_agent_id).
    await submit(w.sb, task.paneId, `please ${DELEGATE_MARK} this`);
    await waitForText(w.sb, task.paneId, 'fleetcom mock subtask', 60_000);
    const after = await waitTask(w.fleet, task.id, (t) => t.attention === 'waiting' && t.attentionSince !== done.attentionSince, 'waiting after the delegated turn');
    expect(after).toMatchObject({ conversationId: id, idSource: 'capture' });
    proven(client, 'subagent', "a `task` tool subagent fires no SessionStart and has no session directory; its hooks (its agent_id as session_id, with parent_agent_id) are skipped");
    await pressKeys(w.sb, task.paneId, 'C-d');
    expect(await waitExited(w.sb, w.fleet, task)).toMatchObject({ conversationId: id, idSource: 'exit-hint' });
    console.log(`copilot permission and subagent: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
