// The real claude (version pinned in clients/manifest.json) driven through fleetcom: run,
// type, exit, ls, save, rerun — offline, answered by the mock API.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeSlug } from '../src/harness/index.js';
import { clientsOf } from './helpers/clients.js';
import {
  clientProcess, paneText, REPLY_MS, savedCommands, START_MS, submit, waitExited, waitForPayloads, waitForText, waitReady,
} from './helpers/drive.js';
import { waitFor, waitTask } from './helpers/poll.js';
import { flagValue } from './helpers/proc.js';
import { proven } from './helpers/proven.js';
import { recordExit } from './helpers/record.js';
import { useClientWorld, type ClientWorld } from './helpers/world.js';
import { REPLY_MARK, startMockApi, type MockApi } from './mock-api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

async function runClaude(w: ClientWorld, callerEnv: Record<string, string> = {}) {
  const r = await w.fleet.cliIn(w.sb.dir, { ...w.sb.env, ...callerEnv }, 'run', '--cwd', w.project, '--', 'claude');
  expect(r.exitCode, r.stderr).toBe(0);
  const task = await w.fleet.task(r.stdout.trim());
  const proc = await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('--session-id') || argv.includes('--resume'));
  return { task, proc };
}

function transcriptFile(w: ClientWorld, id: string): string {
  return join(w.sb.env.CLAUDE_CONFIG_DIR ?? '', 'projects', claudeSlug(w.project), `${id}.jsonl`);
}

function transcriptText(w: ClientWorld, id: string): string {
  return existsSync(transcriptFile(w, id)) ? readFileSync(transcriptFile(w, id), 'utf8') : '(no transcript)';
}

function transcriptUserRecords(w: ClientWorld, id: string): number | null {
  if (!existsSync(transcriptFile(w, id))) return null;
  return transcriptText(w, id).split('\n').filter((l) => l.includes('"type":"user"')).length;
}

describe.concurrent.each(clientsOf('claude'))('$agent $version (Node $node) under fleetcom', (client) => {
  const VERSION = client.version;
  it('pins and captures the same id, scrapes the exit hint after a message, saves and resumes it', async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    const { task, proc } = await runClaude(w);

    // The pin (what claude was really given) and the SessionStart capture agree, before any message.
    const pin = flagValue(proc.argv, '--session-id');
    expect(pin).toMatch(UUID);
    const capture = proc.env.FLEETCOM_CAPTURE_FILE;
    expect(capture, 'claude runs with FLEETCOM_CAPTURE_FILE').toBeTruthy();
    const [start] = await waitForPayloads(capture!, (p) => p.some((x) => x.hook_event_name === 'SessionStart'), 'SessionStart', START_MS);
    expect(start).toMatchObject({ session_id: pin, hook_event_name: 'SessionStart', source: 'startup', cwd: w.project });
    expect(String(start?.transcript_path)).toMatch(new RegExp(`/projects/${claudeSlug(w.project)}/${pin}\\.jsonl$`));
    proven(client, 'pin', '`--session-id <uuid>` honoured; SessionStart `startup` names it before any message');

    // No conversation yet: claude writes the transcript at the first message, so by 8.2 the
    // captured id does not count and the task resumes as plain `claude`.
    await waitReady(w.sb, task.paneId);
    expect(transcriptUserRecords(w, pin!)).toBeNull();
    expect(await w.fleet.task(task.id)).toMatchObject({ conversationId: null, resumeCommand: 'claude' });

    // A message, answered by the mock: the transcript gets its user record, the id counts.
    await submit(w.sb, task.paneId, 'hello from fleetcom');
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    await waitFor(() => transcriptUserRecords(w, pin!)! > 0, { what: 'a user record in the transcript' });
    const talked = await waitTask(w.fleet, task.id, (t) => t.conversationId === pin, 'the pinned id as its conversation');
    expect(talked.idSource).toBe('capture');

    // /exit prints the hint; fleetcom scrapes it.
    await submit(w.sb, task.paneId, '/exit');
    const exited = await waitExited(w.sb, w.fleet, task);
    expect(exited).toMatchObject({ killed: false, conversationId: pin, idSource: 'exit-hint', resumeCommand: `claude --resume '${pin}'` });
    // tmux 3.3a leaves about half of claude's exits unreaped: the status is then unknown.
    expect([0, null]).toContain(exited.exitStatus);
    const text = await paneText(w.sb, task.paneId);
    expect(text).toContain('Resume this session with:');
    // 2.1.197 prints `claude --resume <id>`; 2.1.332 echoes launch flags: `claude --settings <path> --resume <id>`.
    const hint = text.split('\n').find((line) => line.includes(`--resume ${pin}`));
    expect(hint, text).toMatch(new RegExp(`^claude( \\S+)* --resume ${pin}$`));
    proven(client, 'exit hint', `\`${hint!.replace(pin!, '<id>').replace(dirname(capture!), '<namespace>')}\` after a message; scraped`);
    await recordExit({ agent: 'claude', version: VERSION, variant: '', expectedId: pin!, how: 'bare `claude` in a fleet, one message answered by the mock API, then `/exit`' }, text, w.sb.dir);

    expect(await savedCommands(w.fleet, w.project)).toEqual([`claude --resume '${pin}'`]);

    // rerun: the real client comes back into that conversation.
    const rerun = await w.fleet.cli('rerun', String(task.id));
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const again = await w.fleet.task(task.id);
    expect(again).toMatchObject({ run: 1, command: `claude --resume '${pin}'` });
    const resumed = await clientProcess(w.sb, w.fleet, again, (argv) => argv.includes('--resume'));
    expect(flagValue(resumed.argv, '--resume')).toBe(pin);
    const capture2 = resumed.env.FLEETCOM_CAPTURE_FILE;
    expect(capture2).toBeTruthy();
    expect(capture2).not.toBe(capture);
    const [restart] = await waitForPayloads(capture2!, (p) => p.some((x) => x.hook_event_name === 'SessionStart'), 'SessionStart on resume', START_MS);
    expect(restart).toMatchObject({ session_id: pin, hook_event_name: 'SessionStart', source: 'resume' });
    const back = await waitTask(w.fleet, task.id, (t) => t.state !== 'exited' && t.conversationId === pin, 'the same conversation');
    expect(back.idSource).toBe('capture');
    proven(client, 'capture', 'SessionStart hook: `startup`, `resume` on rerun; counts from the first message');
  });

  it("starts as its own session from a caller that is inside claude (the caller's markers dropped)", async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    const jobDir = await w.sb.mkdir('parent-job');
    const { task, proc } = await runClaude(w, {
      CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', CLAUDE_CODE_SESSION_ID: '5d0c2b8e-3f7a-4c1e-9b2d-7e6f5a4b3c2d',
      CLAUDE_CODE_CHILD_SESSION: '1', CLAUDE_JOB_DIR: jobDir, CLAUDE_CODE_SESSION_KIND: 'bg',
    });
    expect(Object.keys(proc.env).filter((k) => /^CLAUDE(CODE$|_CODE_(ENTRYPOINT|SESSION_ID|CHILD_SESSION|SESSION_KIND)$|_JOB_DIR$)/.test(k))).toEqual([]);
    const pin = flagValue(proc.argv, '--session-id')!;
    await waitReady(w.sb, task.paneId);
    await submit(w.sb, task.paneId, 'hello from inside claude');
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    await waitFor(() => transcriptUserRecords(w, pin)! > 0, { what: 'a user record in the transcript' });
    await submit(w.sb, task.paneId, '/exit');
    const exited = await waitExited(w.sb, w.fleet, task);
    expect(exited).toMatchObject({ conversationId: pin, idSource: 'exit-hint', resumeCommand: `claude --resume '${pin}'` });
    proven(client, 'parent markers', 'dropped from a caller inside claude: the task writes its transcript and hint');
  });

  it('keeps plain `claude` when it exits without a message (amendment 8.2)', async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    const { task, proc } = await runClaude(w);
    const pin = flagValue(proc.argv, '--session-id');
    expect(pin).toMatch(UUID);
    await waitForPayloads(proc.env.FLEETCOM_CAPTURE_FILE!, (p) => p.some((x) => x.session_id === pin), 'SessionStart', START_MS);
    await waitReady(w.sb, task.paneId);

    await submit(w.sb, task.paneId, '/exit');
    const exited = await waitExited(w.sb, w.fleet, task);
    const text = await paneText(w.sb, task.paneId);
    expect(text).not.toContain('--resume');
    // The pin was captured, but nothing was said in its conversation: it resumes as plain
    // `claude`. (claude sometimes persists the `/exit` command itself as `user` records —
    // see clients/README.md — which must not make it a conversation worth resuming.)
    const transcript = `--- transcript ---\n${transcriptText(w, pin!)}\n--- pane ---\n${text}`;
    expect(exited, transcript).toMatchObject({ killed: false, conversationId: null, idSource: null, resumeCommand: 'claude' });
    proven(client, 'no message', 'no hint; the task resumes as plain `claude`');
    await recordExit({ agent: 'claude', version: VERSION, variant: 'no-message', expectedId: null, how: 'bare `claude` in a fleet, `/exit` before any message' }, text, w.sb.dir);

    expect(await savedCommands(w.fleet, w.project)).toEqual(['claude']);
  });
});
