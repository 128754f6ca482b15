// A lead agent: a real claude with `fleetcom mcp` added as `fleetcom mcp --config claude` says,
// told by the mock (lead-script.ts) to start a real codex worker through the MCP tools, send it
// a message, wait for its turn and read its reply, which must come back to the mock in the
// lead's next request, exactly as the mock gave it to codex. The worker, started by a server
// that claude started, carries none of claude's session markers. Besides: each agent that
// takes MCP settings (claude, codex, gemini) reads what `--config` prints and reaches the server.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../integration/helpers/cli.js';
import type { LsRecord } from '../src/control/protocol.js';
import { isParentMarker } from '../src/harness/index.js';
import { killCodexDaemons } from './helpers/background.js';
import { clientsOf, type InstalledClient } from './helpers/clients.js';
import { clientProcess, paneText, submit, waitReady } from './helpers/drive.js';
import { waitFor, waitTask } from './helpers/poll.js';
import { descendants } from './helpers/proc.js';
import { proven } from './helpers/proven.js';
import { useClientWorld, type ClientWorld } from './helpers/world.js';
import { LEAD_MARK, TOOL_PREFIX, WORKER_MESSAGE } from './lead-script.js';
import { REPLY_MARK, startMockApi, type MockApi } from './mock-api.js';

const run = promisify(execFile);

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

/** `fleetcom mcp --config AGENT` in the world: the settings (stdout) and the how-to (stderr). */
async function configOf(w: ClientWorld, agent: string): Promise<{ settings: string; howTo: string }> {
  const r = await runCli(['mcp', '--config', agent], { env: w.sb.env, cwd: w.project });
  expect(r.exitCode, r.stderr).toBe(0);
  return { settings: r.stdout, howTo: r.stderr };
}

/** Runs the agent's own `mcp add` line that `--config` printed, in the world. */
async function runHowTo(w: ClientWorld, howTo: string, program: string): Promise<string> {
  const line = howTo.split('\n').map((l) => l.trim()).find((l) => l.startsWith(`${program} mcp add `));
  expect(line, howTo).toBeDefined();
  const r = await run('/bin/sh', ['-c', line!], { env: w.sb.env, cwd: w.project, timeout: 120_000 });
  return `${r.stdout}${r.stderr}`;
}

/** `<bin> <args>` of an installed client in the world, its stdout and stderr together. */
async function clientCli(w: ClientWorld, client: InstalledClient, ...args: string[]): Promise<string> {
  const r = await run(join(client.binDir, client.bin), args, { env: w.sb.env, cwd: w.project, timeout: 120_000 }).catch((e: { stdout?: string; stderr?: string; message: string }) => ({ stdout: e.stdout ?? '', stderr: `${e.stderr ?? ''}\n${e.message}` }));
  return `${r.stdout}${r.stderr}`;
}

/** The lead's requests to the mock, in order: each conversation's messages. */
function leadRequests(): unknown[][] {
  return api.requests
    .filter((q) => q.path === '/v1/messages')
    .map((q) => (q.body as { messages?: unknown[] } | null)?.messages ?? [])
    .filter((messages) => JSON.stringify(messages[0] ?? '').includes(LEAD_MARK));
}

/** The text of the tool_result answering the lead's last call of `tool` in `messages`, if it is there. */
function resultOf(messages: unknown[], tool: string): string | undefined {
  const uses = messages.flatMap((m) => ((m as { content?: unknown }).content as Array<Record<string, unknown>> | undefined) ?? []).filter((b) => typeof b === 'object');
  const use = uses.filter((b) => b.type === 'tool_use' && b.name === `${TOOL_PREFIX}${tool}`).at(-1);
  const result = uses.find((b) => b.type === 'tool_result' && b.tool_use_id === use?.id);
  if (result === undefined) return undefined;
  const content = result.content;
  return typeof content === 'string' ? content : Array.isArray(content) ? content.map((c) => String((c as { text?: unknown }).text ?? '')).join('\n') : '';
}

describe('MCP settings printed by fleetcom mcp --config, read by the agents themselves', () => {
  it.each([...clientsOf('claude'), ...clientsOf('codex'), ...clientsOf('gemini')].map((c) => [`${c.agent} ${c.version}`, c] as const))('%s', async (_label, client) => {
    const w = await useClientWorld(client, api);
    const { settings, howTo } = await configOf(w, client.agent);
    if (client.agent === 'claude') {
      // A project's .mcp.json: listed, waiting for the user's approval at the next start (claude's rule).
      await writeFile(join(w.project, '.mcp.json'), settings);
      expect(await clientCli(w, client, 'mcp', 'get', 'fleetcom')).toMatch(/Scope: Project config[\s\S]*Pending approval/);
      await runHowTo(w, howTo, 'claude');
      expect(await clientCli(w, client, 'mcp', 'list')).toMatch(/fleetcom: .* - ✔ Connected/);
      proven(client, 'mcp settings', '`fleetcom mcp --config claude` as .mcp.json (pending approval) and its `claude mcp add --scope user` line: ✔ Connected');
    } else if (client.agent === 'codex') {
      const config = join(w.sb.env.CODEX_HOME ?? '', 'config.toml');
      await writeFile(config, `${await readFile(config, 'utf8')}\n${settings}`);
      expect(await clientCli(w, client, 'mcp', 'get', 'fleetcom')).toMatch(/enabled: true[\s\S]*transport: stdio[\s\S]*args: \S+cli\.cjs mcp/);
      proven(client, 'mcp settings', '`fleetcom mcp --config codex` appended to config.toml: `codex mcp get fleetcom` enabled, stdio');
    } else {
      const file = join(w.sb.env.GEMINI_CLI_HOME ?? w.sb.home, '.gemini', 'settings.json');
      const mine = JSON.parse(settings) as Record<string, unknown>;
      await mkdir(dirname(file), { recursive: true });
      const theirs = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Record<string, unknown>;
      await writeFile(file, JSON.stringify({ ...theirs, ...mine }, null, 2));
      expect(await clientCli(w, client, 'mcp', 'list')).toMatch(/fleetcom: .* \(stdio\) - Connected/);
      proven(client, 'mcp settings', '`fleetcom mcp --config gemini` merged into settings.json: `gemini mcp list` Connected');
    }
  }, 300_000);
});

describe.each(clientsOf('claude'))('a lead claude $version with fleetcom mcp', (client) => {
  it('starts a codex worker, sends it a message, waits for its turn and reads its reply through the MCP tools', async () => {
    const started = Date.now();
    const [codex] = clientsOf('codex');
    if (codex === undefined) throw new Error('the lead test needs the codex client of the manifest');
    const w = await useClientWorld(client, api);
    // codex on PATH too, on its own Node's directory after claude's (claude's bin dir first).
    w.sb.env.PATH = [w.sb.env.PATH, codex.binDir, dirname(codex.nodeBin)].join(':');
    const { howTo } = await configOf(w, 'claude');
    await runHowTo(w, howTo, 'claude');
    // The lead may call the server's tools without asking (what --config's how-to says).
    await mkdir(join(w.project, '.claude'), { recursive: true });
    await writeFile(join(w.project, '.claude', 'settings.json'), `${JSON.stringify({ permissions: { allow: ['mcp__fleetcom'] } }, null, 2)}\n`);

    const lead = await runCli(['run', '--cwd', w.project, '--name', 'lead', '--', 'claude'], { env: w.sb.env, cwd: w.project });
    expect(lead.exitCode, lead.stderr).toBe(0);
    const leadTask = await w.fleet.task(lead.stdout.trim());
    await waitReady(w.sb, leadTask.paneId);
    await submit(w.sb, leadTask.paneId, `${LEAD_MARK} ${w.project}`);

    // The lead's request after its output call: the worker's reply in the tool's answer.
    const last = await waitFor(() => leadRequests().find((messages) => resultOf(messages, 'output') !== undefined), {
      what: 'the lead to read its worker\'s reply', timeout: 600_000,
    }).catch(async (e: Error) => {
      const seen = leadRequests().at(-1);
      throw new Error(`${e.message}\n--- the lead's last request ---\n${JSON.stringify(seen).slice(-3000)}\n--- lead pane ---\n${await paneText(w.sb, leadTask.paneId).catch(() => '(gone)')}`);
    });
    const workerReply = api.answered.find((a) => a.tools && a.input.includes(WORKER_MESSAGE) && a.text.startsWith(REPLY_MARK))?.text;
    expect(workerReply, 'the mock answered the worker').toBeDefined();
    const output = JSON.parse(resultOf(last, 'output')!.split('\n')[0]!) as { task: number; text: string; turn: number };
    expect(output).toMatchObject({ text: workerReply, turn: 1 });
    expect(resultOf(last, 'send')).toMatch(/"verdict":"submitted"/);
    proven(client, 'lead over MCP', 'a claude with `fleetcom mcp` (claude mcp add --scope user) ran a codex worker, sent it a message, waited and read its reply with the tools mcp__fleetcom__run, send, wait, output');

    // The worker: a codex task of the fleet, in its own conversation, with none of the lead's markers.
    const worker = await waitTask(w.fleet, output.task, (t: LsRecord) => t.conversationId !== null, 'the worker\'s conversation');
    expect(worker).toMatchObject({ harness: 'codex', name: 'worker', cwd: w.project });
    const codexProc = await clientProcess(w.sb, w.fleet, worker, (argv) => argv.some((a) => /(^|\/)codex(\.js)?$/.test(a)));
    expect(Object.keys(codexProc.env).filter(isParentMarker)).toEqual([]);
    const leadProc = await clientProcess(w.sb, w.fleet, leadTask, (argv) => argv.includes('--session-id') || argv.includes('--resume'));
    const server = (await descendants(leadProc.pid)).find((p) => p.argv.includes('mcp') && p.argv.some((a) => a.endsWith('cli.cjs')));
    expect(server, 'claude started fleetcom mcp').toBeDefined();
    expect(Object.keys(server!.env).filter(isParentMarker).length, 'the server runs with the lead\'s markers').toBeGreaterThan(0);
    await waitFor(async () => (await paneText(w.sb, leadTask.paneId)).includes('fleetcom-mock-lead-done'), { what: 'the lead to say it is done', timeout: 120_000 });
    killCodexDaemons(w.sb.home);
    process.stderr.write(`lead ${client.version} → codex ${codex.version}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }, 900_000);
});
