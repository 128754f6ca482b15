// fleetcom's orchestration commands on every real client (offline, against the mock API): a
// one-line message, then a multi-line one, each `send` → `submitted` with its turn, `wait`
// → that turn's end, `output` → exactly the text the mock answered that turn.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../integration/helpers/cli.js';
import type { ReplyOf } from '../src/control/protocol.js';
import { installedClients, type InstalledClient } from './helpers/clients.js';
import { proven } from './helpers/proven.js';
import { useClientWorld, type ClientWorld } from './helpers/world.js';
import { REPLY_MARK, startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

/** How long each client may take to start and to answer a turn on 2 loaded cores (as its round trip measured). */
const START_S: Record<InstalledClient['agent'], number> = {
  claude: 90, codex: 90, gemini: 90, qwen: 90, pi: 90, copilot: 150, opencode: 240, kilo: 300,
};

/** The built CLI in the world, with a deadline past the command's own --timeout. */
async function cli(w: ClientWorld, seconds: number, ...args: string[]) {
  return runCli(args, { env: w.sb.env, cwd: w.project, timeout: (seconds + 30) * 1000 });
}

function parsed<T>(r: { stdout: string; stderr: string; exitCode: number }, what: string): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`${what} printed no JSON (exit ${r.exitCode}): ${r.stdout}\n${r.stderr}`);
  }
}

/** The reply the mock gave to the turn whose message holds `token` (the first turn request naming it). */
function replyTo(token: string): string | undefined {
  return api.answered.find((a) => a.tools && a.input.includes(token) && a.text.startsWith(REPLY_MARK))?.text;
}

describe.each(installedClients())('$agent $version: send, wait, output', (client) => {
  it('sends a line and then several lines, each submitted; waits for each turn; reads each reply exactly', async () => {
    const started = Date.now();
    const limit = START_S[client.agent];
    const w = await useClientWorld(client, api);
    const run = await cli(w, 30, 'run', '--cwd', w.project, '--', client.agent);
    expect(run.exitCode, run.stderr).toBe(0);
    const id = run.stdout.trim();
    const stamp = Date.now().toString(36);
    const messages = [`one line ${stamp}-a`, `first of two lines ${stamp}-b\nsecond of two lines`];
    for (const [i, message] of messages.entries()) {
      const token = `${stamp}-${i === 0 ? 'a' : 'b'}`;
      const sent = await cli(w, limit, 'send', id, '--json', '--timeout', String(limit), message);
      const verdict = parsed<ReplyOf<'send'>>(sent, 'send');
      expect(verdict, sent.stderr).toMatchObject({ verdict: 'submitted', turn: i + 1 });
      const waited = await cli(w, limit, 'wait', id, '--turn', String(verdict.turn), '--json', '--timeout', String(limit));
      expect(parsed<ReplyOf<'wait'>>(waited, 'wait'), waited.stderr).toMatchObject({ met: true });
      const reply = replyTo(token);
      expect(reply, `the mock answered the turn of ${token}`).toBeDefined();
      // Right after the wait: the reply is the turn-end signal's, or the store's once the agent
      // wrote it there (copilot writes its events.jsonl after its Stop hook: output waits for it).
      const output = parsed<ReplyOf<'output'>>(await cli(w, 30, 'output', id, '--json'), 'output');
      expect(output).toMatchObject({ turn: i + 1, text: reply });
      process.stderr.write(`${client.agent} ${client.version}: turn ${i + 1} ${verdict.via} in ${verdict.ms} ms, reply from ${output.source}\n`);
      if (i === 0) proven(client, 'send', `one line, then several lines as one message (${verdict.via}): submitted, the turn counted; wait met at its end`);
      if (i === 0) proven(client, 'output', `the turn's reply exactly, from its ${output.source}`);
    }
    process.stderr.write(`${client.agent} ${client.version} send/wait/output: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }, 900_000);
});
