// `fleetcom mcp` driven by the SDK's own MCP client over stdio against a real fleet: every
// tool answers with the CLI's JSON, a failed command is a tool error with its stderr and exit
// code, a wait still pending answers the state within the call's bound, and a task started
// from inside a claude session gets none of that session's markers.
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LsRecord } from '../../src/control/protocol.js';
import { CLAUDE_MARKERS as MARKERS, talkAndExit } from '../helpers/claude-child.js';
import { cliPath, runCli } from '../helpers/cli.js';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { connectMcp } from './mcp-client.js';

describe('fleetcom mcp', () => {
  it('offers ls, run, send, wait, output and history; ls answers what ls --json prints; its own lines go to stderr', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sleep', '1000');
    const mcp = await connectMcp(sb);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['history', 'ls', 'output', 'run', 'send', 'wait']);
    const wait = tools.find((t) => t.name === 'wait');
    expect(wait?.inputSchema.required).toEqual(['tasks']);
    const ls = await mcp.call('ls', {});
    expect(ls.isError).toBe(false);
    const records = ls.json as LsRecord[];
    expect(records.map((t) => [t.id, t.command])).toEqual([[Number(id), 'sleep 1000']]);
    expect(Object.keys(records[0] ?? {}).sort()).toEqual(Object.keys((await fleet.ls())[0] ?? {}).sort());
    expect(mcp.stderr()).toMatch(/fleetcom mcp: fleetcom ls --json → exit 0 in \d+ ms/);
  });

  it('runs a task in the directory asked, and history answers history --json', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('work');
    const mcp = await connectMcp(sb);
    const run = await mcp.call('run', { command: 'sleep 1000', cwd: dir, name: 'sleeper' });
    expect(run.isError, run.texts.join('\n')).toBe(false);
    expect(run.json).toEqual({ task: expect.any(Number), send: null });
    const task = await fleet.task((run.json as { task: number }).task);
    expect(task).toMatchObject({ command: 'sleep 1000', cwd: dir, name: 'sleeper' });
    const history = await mcp.call('history', { all: true });
    expect(history.isError, history.texts.join('\n')).toBe(false);
    expect(Array.isArray(history.json)).toBe(true);
  });

  it("starts a claude from inside a claude session without that session's markers (it keeps a transcript and resumes)", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    // The server as a lead claude starts it: with the lead's markers in its environment.
    const mcp = await connectMcp(sb, { env: MARKERS });
    const run = await mcp.call('run', { command: 'claude', cwd: sb.dir });
    expect(run.isError, run.texts.join('\n')).toBe(false);
    const id = String((run.json as { task: number }).task);
    await talkAndExit(sb, fleet, id, sb.env.CLAUDE_CONFIG_DIR ?? '');
  });

  it('answers a failed command as a tool error with its stderr and exit code, and refuses what it cannot run', async () => {
    const sb = await useSandbox();
    const none = await connectMcp(sb);
    const noFleet = await none.call('ls', {});
    expect(noFleet).toMatchObject({ isError: true });
    expect(noFleet.texts[0]).toMatch(/^fleetcom ls --json failed \(exit 3: no fleet is running\):\nfleetcom: no fleet is running/);
    await startFleet(sb);
    const mcp = await connectMcp(sb);
    const badDir = await mcp.call('run', { command: 'sleep 1', cwd: join(sb.dir, 'missing') });
    expect(badDir.isError).toBe(true);
    expect(badDir.texts[0]).toMatch(/^fleetcom run --cwd \S+missing -- "sleep 1" failed \(exit \d[^)]*\):\nfleetcom: .*missing/);
    const stdin = await mcp.call('send', { task: 1, text: '-' });
    expect(stdin.isError).toBe(true);
    expect(stdin.texts[0]).toMatch(/a lone '-' means standard input/);
    const badInput = await mcp.call('wait', { tasks: [] });
    expect(badInput.isError).toBe(true);
    expect(badInput.texts.join('\n')).toMatch(/tasks/);
  });
});

describe('fleetcom mcp on its stdio', () => {
  it('writes nothing but JSON-RPC messages on stdout, its log on stderr, and ends when its stdin does', async () => {
    const sb = await useSandbox();
    await startFleet(sb);
    const child = spawn(process.execPath, [cliPath, 'mcp'], { env: sb.env, cwd: sb.dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const say = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    say({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    say({ method: 'notifications/initialized' });
    say({ id: 2, method: 'tools/call', params: { name: 'ls', arguments: {} } });
    say({ id: 3, method: 'tools/call', params: { name: 'output', arguments: { task: 7 } } });
    await waitFor(() => stdout.split('\n').filter((l) => l.trim() !== '').length >= 3, { what: 'three answers' });
    child.stdin.end();
    expect(await exited).toBe(0);
    const messages = stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean } });
    // Calls run at once: answered as each ends, whatever the order asked.
    expect(messages.map((m) => [m.id, m.result?.isError ?? false]).sort()).toEqual([[1, false], [2, false], [3, true]]);
    expect(stderr).toMatch(/fleetcom mcp: serving ls, run, send, wait, output, history on stdio\n/);
    expect(stderr).toMatch(/fleetcom mcp: fleetcom output --json -- 7 → exit 1 in \d+ ms/);
  });
});

describe('fleetcom mcp --config', () => {
  it("names `fleetcom mcp` when the fleetcom on PATH is this one, else this Node and bin by path", async () => {
    const sb = await useSandbox();
    const bin = await sb.mkdir('bin');
    const byPath = await runCli(['mcp', '--config', 'gemini'], { env: sb.env, cwd: sb.dir });
    expect(byPath.exitCode, byPath.stderr).toBe(0);
    expect(JSON.parse(byPath.stdout)).toEqual({ mcpServers: { fleetcom: { command: process.execPath, args: [realpathSync(cliPath), 'mcp'] } } });
    await symlink(cliPath, join(bin, 'fleetcom'));
    const onPath = await runCli(['mcp', '--config', 'codex'], { env: { ...sb.env, PATH: `${bin}:${sb.env.PATH}` }, cwd: sb.dir });
    expect(onPath.stdout).toBe('[mcp_servers.fleetcom]\ncommand = "fleetcom"\nargs = ["mcp"]\n');
    expect(onPath.stderr).toContain('codex mcp add fleetcom -- fleetcom mcp');
  });
});

describe('fleetcom mcp with the orchestration commands', () => {
  it("runs a claude with its first message, then send, wait and output: each turn submitted, met, and the agent's own reply", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const mcp = await connectMcp(sb);
    const run = await mcp.call('run', { command: 'claude', prompt: 'hello there' });
    expect(run.isError, run.texts.join('\n')).toBe(false);
    const { task, send } = run.json as { task: number; send: { verdict: string; turn: number } };
    expect(send).toMatchObject({ task, verdict: 'submitted', turn: 1 });
    const waited = await mcp.call('wait', { tasks: [task], turn: 1 });
    expect(waited.json, waited.texts.join('\n')).toMatchObject({ met: true, timedOut: false });
    expect(await mcp.call('output', { task })).toMatchObject({ isError: false, json: { task, turn: 1, text: 'fake reply to: hello there' } });
    const two = await mcp.call('send', { task: String(task), text: 'first line\nsecond line' });
    expect(two.json, two.texts.join('\n')).toMatchObject({ task, verdict: 'submitted', turn: 2 });
    expect((await mcp.call('wait', { tasks: [task], turn: 2 })).json).toMatchObject({ met: true });
    const out = await mcp.call('output', { task, turn: 2 });
    expect(out.json).toMatchObject({ task, turn: 2, text: 'fake reply to: first line\nsecond line' });
    expect((out.json as { conversationId: string }).conversationId).toBe((await fleet.task(task)).conversationId);
  });

  it('answers a wait not met within the call with the state before 30 s, to be asked again; met once it holds', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sleep', '1000');
    const mcp = await connectMcp(sb);
    // Ten minutes asked: one call waits 25 s at most, and answers what the task is doing.
    const pending = await mcp.call('wait', { tasks: [id], until: 'exited', timeoutSeconds: 600 }, 40_000);
    expect(pending.isError, pending.texts.join('\n')).toBe(false);
    expect(pending.json).toMatchObject({ met: false, timedOut: true, tasks: [{ task: Number(id), met: false }] });
    expect(pending.texts[1]).toMatch(/still pending.*call wait again/);
    expect(pending.ms).toBeGreaterThanOrEqual(24_000);
    expect(pending.ms).toBeLessThan(30_000);
    expect((await fleet.cli('kill', id)).exitCode).toBe(0);
    const met = await mcp.call('wait', { tasks: [id], until: 'exited' });
    expect(met.json).toMatchObject({ met: true });
  });

  it("an unknown task's output and a send into a plain command are answered as the CLI answers them", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const mcp = await connectMcp(sb);
    const unknown = await mcp.call('output', { task: 99 });
    expect(unknown.isError).toBe(true);
    expect(unknown.texts[0]).toMatch(/^fleetcom output --json -- 99 failed \(exit 1\):\nfleetcom: .*99/);
    const id = await fleet.run('cat');
    const typed = await mcp.call('send', { task: id, text: 'to cat' });
    expect(typed.isError, typed.texts.join('\n')).toBe(false);
    expect(typed.json).toMatchObject({ task: Number(id), verdict: 'typed' });
  });
});
