// The real codex (version pinned in clients/manifest.json) driven through fleetcom: run, type,
// exit, ls, save, rerun, and a user's own notifier — offline, answered by the mock API.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, waitTask } from './helpers/poll.js';
import type { LsRecord } from '../src/control/protocol.js';
import { clientsOf } from './helpers/clients.js';
import {
  clientProcess, paneText, pressKeys, REPLY_MS, savedCommands, submit, waitExited, waitForPayloads, waitForText, waitReady,
} from './helpers/drive.js';
import { proven } from './helpers/proven.js';
import { recordExit } from './helpers/record.js';
import { useClientWorld, type ClientWorld } from './helpers/world.js';
import { DELEGATE_MARK, REPLY_MARK, startMockApi, SUBTASK_MESSAGE, type MockApi } from './mock-api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TITLE_PROMPT = 'Generate a concise, single-line task title';

type Payload = Record<string, unknown>;

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

const isCodex = (argv: string[]) => argv.some((a) => /(^|\/)codex(\.js)?$/.test(a));
const inputs = (p: Payload) => (Array.isArray(p['input-messages']) ? (p['input-messages'] as unknown[]).map(String) : []);
const isTitle = (p: Payload) => inputs(p).some((m) => m.startsWith(TITLE_PROMPT));

async function runCodex(w: ClientWorld) {
  const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'codex');
  expect(r.exitCode, r.stderr).toBe(0);
  const task = await w.fleet.task(r.stdout.trim());
  const proc = await clientProcess(w.sb, w.fleet, task, isCodex);
  const capture = proc.env.FLEETCOM_CAPTURE_FILE;
  expect(capture, 'codex runs with FLEETCOM_CAPTURE_FILE').toBeTruthy();
  return { task, proc, capture: capture! };
}

/** Sends one message and waits for the mock's reply and for both notifies of the first turn. */
async function talk(w: ClientWorld, task: LsRecord, capture: string, message: string, turns: number): Promise<{ main: Payload; title: Payload | undefined }> {
  await waitReady(w.sb, task.paneId);
  await submit(w.sb, task.paneId, message);
  await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
  // The main thread's notify; after the first turn also the title thread's (either order).
  const payloads = await waitForPayloads(
    capture,
    (p) => p.some((x) => inputs(x).at(-1) === message) && (turns > 1 || p.some(isTitle)),
    turns > 1 ? 'the turn notify' : 'the turn notify and the title notify',
  );
  const main = payloads.find((x) => inputs(x).at(-1) === message)!;
  return { main, title: payloads.find(isTitle) };
}

/** The rollout files under the task's codex home whose name ends with `<id>.jsonl`. */
function rollouts(w: ClientWorld, id: string): string[] {
  const root = join(w.sb.env.CODEX_HOME ?? '', 'sessions');
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.startsWith('rollout-') && e.name.endsWith(`-${id}.jsonl`)) found.push(join(dir, e.name));
    }
  };
  try {
    walk(root);
  } catch {
    return found;
  }
  return found;
}

async function exitCodex(w: ClientWorld, task: LsRecord): Promise<{ exited: LsRecord; text: string }> {
  // One Ctrl-C when idle exits.
  await pressKeys(w.sb, task.paneId, 'C-c');
  const exited = await waitExited(w.sb, w.fleet, task);
  return { exited, text: await paneText(w.sb, task.paneId) };
}

describe.concurrent.each(clientsOf('codex'))('$agent $version under fleetcom', (client) => {
  const VERSION = client.version;
  it('captures the real thread id despite the title notify, scrapes the same from the exit, saves and resumes it', async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    const { task, capture } = await runCodex(w);
    const { main, title } = await talk(w, task, capture, 'hello from fleetcom', 1);

    const thread = String(main['thread-id']);
    expect(thread).toMatch(UUID);
    expect(main).toMatchObject({ type: 'agent-turn-complete', cwd: w.project, client: 'codex-tui' });
    // Amendment 8.3: a second notify for an internal title thread, with no rollout of its own.
    expect(title, 'the title-generation notify').toBeDefined();
    expect(title?.['thread-id']).not.toBe(thread);
    expect(rollouts(w, thread)).toHaveLength(1);
    expect(rollouts(w, String(title?.['thread-id']))).toHaveLength(0);
    const first = JSON.parse(readFileSync(rollouts(w, thread)[0]!, 'utf8').split('\n')[0]!) as { type: string; payload: Payload };
    expect(first).toMatchObject({ type: 'session_meta', payload: { id: thread, cwd: w.project } });
    const talked = await waitTask(w.fleet, task.id, (t) => t.conversationId === thread, 'the captured thread id');
    proven(client, 'capture', 'notify: the thread-id of the last payload with a rollout (the title thread has none)');
    expect(talked.idSource).toBe('capture');

    const { exited, text } = await exitCodex(w, task);
    expect(text).toContain('To continue this session, run:');
    expect(text).toContain(`codex resume ${thread}`);
    expect(exited).toMatchObject({ conversationId: thread, idSource: 'exit-hint', resumeCommand: `codex resume '${thread}'` });
    proven(client, 'exit hint', '`codex resume <id>` after a completed turn; scraped (`Session ID:` never)');
    await recordExit({ agent: 'codex', version: VERSION, variant: '', expectedId: thread, how: 'bare `codex` in a fleet (embedded: fleetcom passes -c notify), one message answered by the mock API, then one Ctrl-C' }, text, w.sb.dir);

    expect(await savedCommands(w.fleet, w.project)).toEqual([`codex resume '${thread}'`]);

    // rerun resumes that thread: the next turn's notify names it and carries both messages.
    const rerun = await w.fleet.cli('rerun', String(task.id));
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const again = await w.fleet.task(task.id);
    expect(again).toMatchObject({ run: 1, command: `codex resume '${thread}'` });
    const resumed = await clientProcess(w.sb, w.fleet, again, (argv) => isCodex(argv) && argv.includes(thread));
    const capture2 = resumed.env.FLEETCOM_CAPTURE_FILE;
    expect(capture2).toBeTruthy();
    expect(capture2).not.toBe(capture);
    const next = await talk(w, again, capture2!, 'and once more', 2);
    expect(next.main['thread-id']).toBe(thread);
    expect(inputs(next.main)).toEqual(['hello from fleetcom', 'and once more']);
    const back = await waitTask(w.fleet, task.id, (t) => t.state !== 'exited' && t.conversationId === thread, 'the same thread');
    expect(back.idSource).toBe('capture');
    const second = await exitCodex(w, again);
    expect(second.exited).toMatchObject({ conversationId: thread, idSource: 'exit-hint' });
  });

  it('a subagent thread (one spawn_agent call) never becomes the task\'s conversation; a recipe naming it resumes the user thread', async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    const { task, capture } = await runCodex(w);
    const message = `please ${DELEGATE_MARK} this`;
    await waitReady(w.sb, task.paneId);
    await submit(w.sb, task.paneId, message);
    // The user thread's payload and the subagent's (its own thread-id, its task as input, no
    // client), in either order: the subagent's turn and the user thread's follow-up race (both
    // orders seen on 0.171.0).
    const payloads = await waitForPayloads(
      capture,
      (p) => p.some((x) => inputs(x).at(-1) === message) && p.some((x) => inputs(x)[0] === SUBTASK_MESSAGE),
      'the user thread\'s notify and the subagent\'s',
    );
    const main = payloads.find((x) => inputs(x).at(-1) === message)!;
    const child = payloads.find((x) => inputs(x)[0] === SUBTASK_MESSAGE)!;
    const parent = String(main['thread-id']);
    const sub = String(child['thread-id']);
    expect(main).toMatchObject({ client: 'codex-tui' });
    expect(child).not.toHaveProperty('client');
    const head = (id: string) => JSON.parse(readFileSync(rollouts(w, id)[0]!, 'utf8').split('\n')[0]!) as { type: string; payload: Payload };
    expect(head(parent)).toMatchObject({ type: 'session_meta', payload: { id: parent, thread_source: 'user', source: 'cli' } });
    expect(head(sub)).toMatchObject({
      type: 'session_meta',
      payload: { id: sub, parent_thread_id: parent, thread_source: 'subagent', source: { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1 } } } },
    });

    // While it runs, after the subagent's payload: ls and save name the user thread.
    expect(await w.fleet.task(task.id)).toMatchObject({ conversationId: parent, idSource: 'capture' });
    expect(await savedCommands(w.fleet, w.project)).toEqual([`codex resume '${parent}'`]);
    proven(client, 'subagent thread', 'a spawn_agent subagent\'s notify (before or after the user thread\'s, no `client`) is skipped: its rollout says `thread_source: "subagent"`');

    const { exited } = await exitCodex(w, task);
    expect(exited).toMatchObject({ conversationId: parent, idSource: 'exit-hint' });
    expect(await savedCommands(w.fleet, w.project)).toEqual([`codex resume '${parent}'`]);

    // A recipe entry naming the subagent's thread: the task resumes the user thread, and it talks.
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', `codex resume '${sub}'`);
    expect(r.exitCode, r.stderr).toBe(0);
    const again = await w.fleet.task(r.stdout.trim());
    expect(again.command).toBe(`codex resume '${parent}'`);
    const resumed = await clientProcess(w.sb, w.fleet, again, (argv) => isCodex(argv) && argv.includes(parent));
    expect(resumed.argv).not.toContain(sub);
    const next = await talk(w, again, resumed.env.FLEETCOM_CAPTURE_FILE!, 'back in the user thread', 2);
    expect(next.main['thread-id']).toBe(parent);
    await exitCodex(w, again);
  });

  it("chains to the user's own notifier, which still receives every payload", async (t) => {
    const w = await useClientWorld(client, api, { userNotifier: true, test: t });
    const { task, proc, capture } = await runCodex(w);
    expect(proc.env.FLEETCOM_NOTIFY_CHAIN, "fleetcom's notifier is told the user's program").toContain(w.userNotifier!.program);

    const { main } = await talk(w, task, capture, 'hello from fleetcom', 1);
    const thread = String(main['thread-id']);
    const userLines = await waitFor(() => {
      const lines = readUserLog(w.userNotifier!.log);
      return lines.some((l) => l['thread-id'] === thread) && lines.some(isTitle) ? lines : null;
    }, { what: "the user's notifier to receive both payloads" });
    // The very payloads fleetcom captured, byte for byte as JSON.
    expect(userLines.find((l) => l['thread-id'] === thread)).toEqual(main);
    await waitTask(w.fleet, task.id, (t) => t.conversationId === thread, 'the captured thread id');

    const { exited } = await exitCodex(w, task);
    expect(exited).toMatchObject({ conversationId: thread, idSource: 'exit-hint' });
  });
});

function readUserLog(file: string): Payload[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((l) => {
    try {
      return l.trim() ? [JSON.parse(l) as Payload] : [];
    } catch {
      return [];
    }
  });
}
