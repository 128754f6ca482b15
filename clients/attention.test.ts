// The real claude (version pinned in clients/manifest.json) through fleetcom's attention: its
// own hooks in fleetcom's overlay say working, waiting and permission — offline, answered by
// the mock API (a held turn keeps it working; a Bash tool call makes it ask for permission).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientsOf } from './helpers/clients.js';
import { clientProcess, REPLY_MS, START_MS, submit, waitForText } from './helpers/drive.js';
import { waitFor, waitTask } from './helpers/poll.js';
import { useClientWorld } from './helpers/world.js';
import { HOLD_MARK, REPLY_MARK, startMockApi, TOOL_CALL_MARK, type MockApi } from './mock-api.js';


let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

// Measured on the pinned claude only (the first of the manifest); the newest is not yet.
describe.each(clientsOf('claude').slice(0, 1))('$agent $version (Node $node): attention from its hooks', (client) => {
  it('a turn goes working → waiting, and a permission request shows permission', async () => {
    const w = await useClientWorld(client, api);
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'claude');
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const task = await w.fleet.task(id);
    const proc = await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('--session-id'));
    const events = String(proc.env.FLEETCOM_CAPTURE_FILE).replace(/\.json$/, '.events');

    // SessionStart: a fresh prompt waits for the user.
    const fresh = await waitTask(w.fleet, id, (t) => t.attention === 'waiting', 'waiting at the fresh prompt', START_MS);
    await waitForText(w.sb, task.paneId, '❯', START_MS);

    // UserPromptSubmit while the mock holds the reply: working, for as long as it is held.
    await submit(w.sb, task.paneId, `hello ${HOLD_MARK}`);
    const working = await waitTask(w.fleet, id, (t) => t.attention === 'working', 'working while the reply is held', REPLY_MS);
    expect(Date.parse(working.attentionSince ?? '')).toBeGreaterThanOrEqual(Date.parse(fresh.attentionSince ?? ''));
    await waitFor(() => api.held() > 0, { what: 'the turn to reach the mock', timeout: REPLY_MS });
    expect((await w.fleet.task(id)).attention).toBe('working');
    api.releaseHeld();

    // Stop: the turn is over.
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting', 'waiting after the reply', REPLY_MS);

    // A Bash tool call: claude asks, and its Notification permission_prompt (~6 s later) says so.
    await submit(w.sb, task.paneId, `please ${TOOL_CALL_MARK}`);
    await waitForText(w.sb, task.paneId, 'Do you want to proceed?', REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'permission', 'permission', REPLY_MS);

    // The events file is the run's own (0600); the prompts went nowhere else fleetcom writes.
    expect(statSync(events).mode & 0o777).toBe(0o600);
    const runtime = w.sb.env.FLEETCOM_RUNTIME_DIR ?? '';
    for (const name of readdirSync(runtime)) {
      if (name.endsWith('.json')) expect(readFileSync(join(runtime, name), 'utf8')).not.toContain(HOLD_MARK);
    }
    expect((await w.fleet.log())).not.toContain(HOLD_MARK);
  });
});
