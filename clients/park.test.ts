// A conversation parked with `←` (both versions): claude's daemon forks it into a background
// session with a NEW id, and that worker runs the task's SessionStart hook with the task's own
// environment (measured: its capture file included). The task's conversation must stay the
// pane's own (contract 8.8).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, waitTask } from './helpers/poll.js';
import { backgroundAgents, claudeCli } from './helpers/background.js';
import { clientsOf } from './helpers/clients.js';
import {
  capturePayloads, clientProcess, pressKeys, REPLY_MS, START_MS, submit, waitForPayloads, waitForText, waitReady,
} from './helpers/drive.js';
import { claudeTranscriptHasUser } from '../src/harness/index.js';
import { flagValue } from './helpers/proc.js';
import { proven } from './helpers/proven.js';
import { useClientWorld } from './helpers/world.js';
import { REPLY_MARK, startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

describe.each(clientsOf('claude'))('$agent $version (Node $node): a parked conversation', (client) => {
  it("keeps the task on the pane's own conversation while the fork runs in the background", async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    // A user hook (the user's settings.json, merged by claude with fleetcom's overlay) logs
    // every SessionStart, the worker's included: the signal that the worker has run its hooks.
    const startLog = join(w.sb.dir, 'session-starts.log');
    await writeFile(join(w.sb.env.CLAUDE_CONFIG_DIR!, 'settings.json'), JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `{ cat; echo; } >> '${startLog}'` }] }] },
    }));
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'claude');
    expect(r.exitCode, r.stderr).toBe(0);
    const task = await w.fleet.task(r.stdout.trim());
    const proc = await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('--session-id'));
    const pin = flagValue(proc.argv, '--session-id')!;
    const capture = proc.env.FLEETCOM_CAPTURE_FILE!;
    await waitForPayloads(capture, (p) => p.some((x) => x.session_id === pin), 'SessionStart', START_MS);
    await waitReady(w.sb, task.paneId);
    await submit(w.sb, task.paneId, 'hello from fleetcom');
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    await waitTask(w.fleet, task.id, (t) => t.conversationId === pin, 'the pinned conversation');

    // `←` at the idle prompt parks the conversation: a background session with another id.
    await pressKeys(w.sb, task.paneId, 'Left');
    const [fork] = await waitFor(async () => {
      const agents = await backgroundAgents(w).catch(() => []);
      return agents.length > 0 ? agents : false;
    }, { what: 'a background session in claude agents', timeout: START_MS });
    expect(fork?.sessionId).not.toBe(pin);
    // The worker has run its SessionStart hooks — fleetcom's with this task's
    // FLEETCOM_CAPTURE_FILE in its environment (2.1.332: the fork's id, source `fork`;
    // 2.1.197: the pin, source `resume`) — yet the capture file holds only the pane's own.
    const starts = await waitForPayloads(startLog, (p) => p.length >= 2, 'the worker’s SessionStart', START_MS);
    expect(starts[0]).toMatchObject({ session_id: pin, source: 'startup' });
    const payloads = await capturePayloads(capture);
    expect(payloads.map((p) => p.session_id)).toEqual([pin]);
    expect(await w.fleet.task(task.id)).toMatchObject({ conversationId: pin, idSource: 'capture' });
    const worker = starts[1]!;
    proven(client, 'parked conversation', `\`←\` forks it into a background job; the worker's SessionStart (\`${String(worker.source)}\`, ${worker.session_id === pin ? 'the same id' : 'a new id'}) is ignored`);
  });
});

/** claude-code from 2.1.332 on records the parked job in the pane's registry entry (2.1.197 does not). */
function recordsParkedJobs(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return major > 2 || (major === 2 && (minor > 1 || (minor === 1 && patch >= 332)));
}

describe.each(clientsOf('claude').filter((c) => recordsParkedJobs(c.version)))('$agent $version (Node $node): a parked job', (client) => {
  it('is shown by ls, attached to by rerun while it runs, and its conversation resumed once it has ended', async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'claude');
    expect(r.exitCode, r.stderr).toBe(0);
    const task = await w.fleet.task(r.stdout.trim());
    const proc = await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('--session-id'));
    const pin = flagValue(proc.argv, '--session-id')!;
    await waitReady(w.sb, task.paneId);
    await submit(w.sb, task.paneId, 'hello from fleetcom');
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);

    await pressKeys(w.sb, task.paneId, 'Left');
    const parked = await waitTask(w.fleet, task.id, (t) => t.parkedJob?.alive === true && t.parkedJob.sessionId !== null, 'a live parked job', START_MS);
    const [job] = await backgroundAgents(w);
    expect(parked.parkedJob).toEqual({ id: job?.id, sessionId: job?.sessionId, alive: true });
    expect(job?.sessionId).not.toBe(pin);

    // Ctrl-C twice leaves the agents view; the job keeps running.
    await waitFor(async () => {
      if ((await w.fleet.task(task.id)).state === 'exited') return true;
      await pressKeys(w.sb, task.paneId, 'C-c', 'C-c');
      return false;
    }, { what: 'the pane to exit on Ctrl-C twice', timeout: START_MS });
    expect((await w.fleet.task(task.id)).parkedJob).toMatchObject({ id: job?.id, alive: true });

    // rerun attaches to the live job instead of resuming a conversation it holds.
    const attach = await w.fleet.cli('rerun', String(task.id));
    expect(attach.exitCode, attach.stderr).toBe(0);
    expect(await w.fleet.task(task.id)).toMatchObject({ run: 1, command: `claude attach ${job?.id}` });
    const attached = await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('attach'));
    expect(attached.argv.slice(-2)).toEqual(['attach', job?.id]);

    // A message in the job (claude writes the fork's transcript at its first message).
    await waitReady(w.sb, task.paneId);
    await submit(w.sb, task.paneId, 'hello in the background');
    await waitForText(w.sb, task.paneId, `${REPLY_MARK} `, REPLY_MS);
    await waitFor(() => claudeTranscriptHasUser(w.sb.env.CLAUDE_CONFIG_DIR!, w.project, job!.sessionId), { what: 'the fork’s transcript', timeout: REPLY_MS });

    // Once the job has ended, rerun resumes the job's own conversation: the user's latest work.
    await claudeCli(w, 'stop', job!.id);
    await waitTask(w.fleet, task.id, (t) => t.parkedJob?.alive === false, 'the job ended', START_MS);
    await waitFor(async () => {
      if ((await w.fleet.task(task.id)).state === 'exited') return true;
      await pressKeys(w.sb, task.paneId, 'C-c', 'C-c');
      return false;
    }, { what: 'the attach pane to exit', timeout: START_MS });
    const resume = await w.fleet.cli('rerun', String(task.id));
    expect(resume.exitCode, resume.stderr).toBe(0);
    expect(await w.fleet.task(task.id)).toMatchObject({ run: 2, command: `claude --resume '${job?.sessionId}'`, parkedJob: null });
    const resumed = await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('--resume'));
    expect(flagValue(resumed.argv, '--resume')).toBe(job?.sessionId);
    proven(client, 'parked job', 'registry `parkedJobId`: ls shows it; rerun attaches (`claude attach <short>`) while it runs, resumes its fork once ended');
  });
});
