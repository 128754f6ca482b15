// `fleetcom history` and `fleetcom resume` on conversations the real clients made offline:
// each listed with the title the client itself gave it (claude: `/rename`'s custom-title;
// codex: its thread name in session_index.jsonl, else the first message), and resume brings
// the conversation back into the same conversation.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LsRecord } from '../src/control/protocol.js';
import { claudeSlug, readSqliteTable } from '../src/harness/index.js';
import { clientsOf } from './helpers/clients.js';
import { clientProcess, pressKeys, pressTwice, REPLY_MS, submit, waitExited, waitForText, waitReady } from './helpers/drive.js';
import { waitFor, waitTask } from './helpers/poll.js';
import { useClientWorld, type ClientWorld } from './helpers/world.js';
import { REPLY_MARK, startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

interface Row { agent: string; id: string; title: string; firstPrompt: string; cwd: string; messages: number | null; heldBy: unknown }

async function history(w: ClientWorld): Promise<Row[]> {
  const r = await w.fleet.cliIn(w.project, w.sb.env, 'history', '--json');
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}

/** The record types of a claude transcript, in order of first appearance. */
function recordTypes(file: string): string[] {
  const types = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => {
    try {
      return String((JSON.parse(l) as { type?: unknown }).type);
    } catch {
      return '(torn)';
    }
  });
  return [...new Set(types)];
}

describe.concurrent.each(clientsOf('claude'))('history: $agent $version (Node $node)', (client) => {
  it('lists the conversation under the name /rename gave it, and resume brings it back', async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    const r = await w.fleet.cliIn(w.sb.dir, w.sb.env, 'run', '--cwd', w.project, '--', 'claude');
    expect(r.exitCode, r.stderr).toBe(0);
    const task = await w.fleet.task(r.stdout.trim());
    await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('--session-id'));
    await waitReady(w.sb, task.paneId);
    await submit(w.sb, task.paneId, 'the history probe message');
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    const id = (await waitTask(w.fleet, task.id, (x) => x.conversationId !== null, 'its conversation id')).conversationId!;
    await submit(w.sb, task.paneId, '/rename history-probe-name');
    const file = join(w.sb.env.CLAUDE_CONFIG_DIR ?? '', 'projects', claudeSlug(w.project), `${id}.jsonl`);
    await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').includes('"custom-title"'), { what: 'the custom-title record of /rename' });
    await submit(w.sb, task.paneId, '/exit');
    await waitExited(w.sb, w.fleet, task);
    t.annotate(`claude ${client.version} transcript record types: ${recordTypes(file).join(', ')}`);
    process.stderr.write(`RECORD claude ${client.version} transcript record types: ${recordTypes(file).join(', ')}\n`);

    const [row] = (await history(w)).filter((x) => x.id === id);
    expect(row).toMatchObject({ agent: 'claude', title: 'history-probe-name', firstPrompt: 'the history probe message', cwd: w.project, heldBy: null });

    const resumed = await w.fleet.cli('resume', id.slice(0, 8));
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const back = await w.fleet.task(resumed.stdout.trim());
    const proc = await clientProcess(w.sb, w.fleet, back, (argv) => argv.includes('--resume'));
    expect(proc.argv.slice(proc.argv.indexOf('--resume'), proc.argv.indexOf('--resume') + 2)).toEqual(['--resume', id]);
    await waitReady(w.sb, back.paneId);
    await submit(w.sb, back.paneId, 'and back again');
    await waitForText(w.sb, back.paneId, REPLY_MARK, REPLY_MS);
    await waitFor(() => readFileSync(file, 'utf8').includes('and back again'), { what: 'the new message in the same transcript' });
    const [held] = (await history(w)).filter((x) => x.id === id);
    expect(held?.heldBy).toEqual({ task: back.id });
  });
});

describe.concurrent.each(clientsOf('codex'))('history: $agent $version (Node $node)', (client) => {
  it('lists the thread under the name codex keeps for it, and resume brings it back', async (t) => {
    const w = await useClientWorld(client, api, { test: t });
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'codex');
    expect(r.exitCode, r.stderr).toBe(0);
    const task = await w.fleet.task(r.stdout.trim());
    await waitReady(w.sb, task.paneId);
    await submit(w.sb, task.paneId, 'the codex history probe');
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    const id = (await waitTask(w.fleet, task.id, (x) => x.conversationId !== null, 'its thread id')).conversationId!;
    await pressKeys(w.sb, task.paneId, 'C-c');
    await waitExited(w.sb, w.fleet, task);

    // codex's own name for the thread, if it wrote one; the first message otherwise.
    const index = join(w.sb.env.CODEX_HOME ?? '', 'session_index.jsonl');
    const names = existsSync(index)
      ? readFileSync(index, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; thread_name: string }).filter((x) => x.id === id)
      : [];
    const expected = names.at(-1)?.thread_name ?? 'the codex history probe';
    t.annotate(`codex ${client.version} session_index.jsonl: ${names.length} line(s) for the thread${names.length ? `, last thread_name ${JSON.stringify(expected)}` : ''}`);
    const [row] = (await history(w)).filter((x) => x.id === id);
    expect(row).toMatchObject({ agent: 'codex', title: expected, firstPrompt: 'the codex history probe', cwd: w.project, heldBy: null });

    const resumed = await w.fleet.cli('resume', id);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const back = await w.fleet.task(resumed.stdout.trim());
    expect(back.command).toBe(`codex resume '${id}'`);
    await waitReady(w.sb, back.paneId);
    await submit(w.sb, back.paneId, 'codex once more');
    await waitForText(w.sb, back.paneId, REPLY_MARK, REPLY_MS);
    await waitTask(w.fleet, back.id, (x) => x.conversationId === id, 'the resumed task in the same thread');
  });
});

/** gemini and opencode: one turn, exit, listed with their own title, resumed by fleetcom resume. */
interface Other {
  ready: string;
  startMs: number;
  submitted?: (paneText: string) => boolean;
  exit(w: ClientWorld, task: LsRecord): Promise<void>;
  /** The title the client itself keeps for the conversation. */
  title(w: ClientWorld, id: string, said: string): string;
}

const OTHERS: Record<'gemini' | 'opencode', Other> = {
  gemini: {
    ready: 'Type your message',
    startMs: 60_000,
    submitted: (text) => text.includes('Type your message'),
    exit: (w, task) => pressTwice(w.sb, task.paneId, 'C-c', 'Press Ctrl+C again to exit.'),
    // gemini titles a session by its first user message (its /resume picker shows that).
    title: (_w, _id, said) => said,
  },
  opencode: {
    ready: 'ctrl+p commands',
    startMs: 180_000,
    exit: (w, task) => submit(w.sb, task.paneId, '/exit'),
    title(w, id) {
      const read = readSqliteTable(w.sb.env.OPENCODE_DB ?? '', 'session');
      if (read.kind !== 'rows') throw new Error(`opencode's database: ${read.kind}`);
      const row = read.rows.find((r) => r[read.columns.indexOf('id')] === id);
      return String(row?.[read.columns.indexOf('title')]);
    },
  },
};

async function turn(w: ClientWorld, task: LsRecord, how: Other, message: string): Promise<void> {
  await waitForText(w.sb, task.paneId, how.ready, how.startMs);
  const replies = w.api.replies.length;
  await submit(w.sb, task.paneId, message, how.submitted);
  await waitFor(() => w.api.replies.some((r, i) => i >= replies && r.startsWith(REPLY_MARK)), { what: `the mock to answer ${message}`, timeout: Math.max(how.startMs, REPLY_MS) });
  await waitForText(w.sb, task.paneId, REPLY_MARK, Math.max(how.startMs, REPLY_MS));
}

for (const agent of ['gemini', 'opencode'] as const) {
  describe.each(clientsOf(agent))('history: $agent $version (Node $node)', (client) => {
    it('lists the conversation under the title the client gave it, and resume brings it back', async (t) => {
      const how = OTHERS[agent];
      const w = await useClientWorld(client, api, { test: t });
      const said = `the ${agent} history probe`;
      const r = await w.fleet.cli('run', '--cwd', w.project, '--', agent);
      expect(r.exitCode, r.stderr).toBe(0);
      const task = await w.fleet.task(r.stdout.trim());
      await turn(w, task, how, said);
      await how.exit(w, task);
      const id = (await waitExited(w.sb, w.fleet, task)).conversationId;
      expect(id, `${agent} ended with a conversation id`).not.toBeNull();

      const title = how.title(w, id!, said);
      t.annotate(`${agent} ${client.version} title: ${JSON.stringify(title)}`);
      const [row] = (await history(w)).filter((x) => x.id === id);
      expect(row).toMatchObject({ agent, title, cwd: w.project, heldBy: null });

      const resumed = await w.fleet.cli('resume', id!);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      const back = await w.fleet.task(resumed.stdout.trim());
      expect(back.command).toBe(agent === 'gemini' ? `gemini --resume '${id}'` : `opencode -s '${id}'`);
      await turn(w, back, how, `more for ${agent}`);
      await waitTask(w.fleet, back.id, (x) => x.conversationId === id, 'the resumed task in the same conversation');
      // opencode takes ~30 s to start and as much for a turn on 2 loaded cores, twice here.
    }, 600_000);
  });
}
