// The round trip every new agent proves on its real client: a bare launch in a fleet, one
// turn, exit, the id captured; save; the tmux server killed; load in a new fleet; and the same
// conversation goes on — the mock sees the earlier turn in the next request.
import { expect } from 'vitest';
import { startFleet } from '../../integration/helpers/fleet.js';
import { processAlive } from '../../integration/helpers/sandbox.js';
import { waitFor, waitTask } from './poll.js';
import type { LsRecord } from '../../src/control/protocol.js';
import { REPLY_MS, START_MS, paneText, savedCommands, submit, waitExited, waitForText } from './drive.js';
import type { ClientWorld } from './world.js';
import { REPLY_MARK } from '../mock-api.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface RoundTrip {
  /** What the client's idle prompt shows. */
  ready: string;
  /** How long its start and a turn may take (opencode: ~30 s each on 2 loaded cores, more at load 25). */
  startMs?: number;
  /** What the pane shows once a typed message has been taken (see drive.ts `submit`). */
  submitted?: (paneText: string) => boolean;
  /** Types what exits it. */
  exit(w: ClientWorld, task: LsRecord): Promise<void>;
  /** Whether a recorded request carries `text` as an earlier turn. */
  requestHas(body: unknown, text: string): boolean;
  /** The words of `run` before `--` (default `--cwd <project>`), and the directory the task runs in. */
  run?: { args: string[]; cwd: string };
  /** After the save, with the tmux server gone: what the user does before the load (a worktree removed by hand). */
  beforeLoad?: () => Promise<void>;
  /** Checks made while the first run waits after its turn (its capture, its attention). */
  afterFirstTurn?(w: ClientWorld, task: LsRecord): Promise<void>;
}

/** Whether an OpenAI chat-completions request holds `text` in a user message (opencode, kilo, qwen). */
export function chatRequestHas(body: unknown, text: string): boolean {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> } | null)?.messages ?? [];
  return messages.some((m) => m.role === 'user' && JSON.stringify(m.content ?? '').includes(text));
}

async function turn(w: ClientWorld, task: LsRecord, how: RoundTrip, message: string): Promise<void> {
  await waitForText(w.sb, task.paneId, how.ready, how.startMs ?? START_MS);
  const replies = w.api.replies.length;
  await submit(w.sb, task.paneId, message, how.submitted);
  const timeout = Math.max(how.startMs ?? 0, REPLY_MS);
  await waitFor(() => w.api.replies.some((r, i) => i >= replies && r.startsWith(REPLY_MARK)), { what: `the mock to answer ${message}`, timeout }).catch(async (e: Error) => {
    throw new Error(`${e.message}\n--- pane ${task.paneId} ---\n${await paneText(w.sb, task.paneId).catch(() => '(gone)')}`);
  });
  await waitForText(w.sb, task.paneId, REPLY_MARK, timeout);
}

/** Returns what the first run ended with (its record and exit text) and the resumed task. */
export async function roundTrip(w: ClientWorld, agent: string, how: RoundTrip) {
  const cwd = how.run?.cwd ?? w.project;
  const r = await w.fleet.cli('run', ...(how.run?.args ?? ['--cwd', w.project]), '--', agent);
  expect(r.exitCode, r.stderr).toBe(0);
  const task = await w.fleet.task(r.stdout.trim());
  await turn(w, task, how, 'remember the word lighthouse');
  await how.afterFirstTurn?.(w, task);
  await how.exit(w, task);
  const exited = await waitExited(w.sb, w.fleet, task);
  const text = await paneText(w.sb, task.paneId);
  const id = exited.conversationId;
  expect(id, `${agent} ended with a conversation id\n${text}`).not.toBeNull();

  expect((await w.fleet.cli('save', 'round-trip')).exitCode).toBe(0);
  const saved = await savedCommands(w.fleet, cwd);
  const supervisor = Number.parseInt(await readFile(join(w.sb.env.FLEETCOM_RUNTIME_DIR!, 'lock'), 'utf8'), 10);
  await w.sb.tmux('kill-server');
  await waitFor(() => !processAlive(supervisor), { what: 'the supervisor to exit with its server' });

  await how.beforeLoad?.();
  const fresh = await startFleet(w.sb);
  const loaded = await fresh.cli('load', 'round-trip');
  expect(loaded.exitCode, loaded.stderr).toBe(0);
  const [back] = await fresh.ls();
  expect(back).toMatchObject({ cwd, command: saved[0] });
  const before = w.api.requests.length;
  await turn(w, back!, how, 'which word did I ask you to remember');
  const later = w.api.requests.slice(before);
  expect(later.some((q) => how.requestHas(q.body, 'remember the word lighthouse')), 'a request after the load carries the earlier turn').toBe(true);
  const resumed = await waitTask(fresh, back!.id, (t) => t.conversationId === id, 'the resumed conversation');
  return { exited, text, saved, resumed, fresh };
}
