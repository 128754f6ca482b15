// The MCP server's tools on another host's fleet (a real OpenSSH host on loopback, in a private
// network namespace: ssh-hosts.mjs): `host` is `--host`, so each tool runs the command there,
// through the user's ssh, exactly as the CLI does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LsRecord } from '../../src/control/protocol.js';
import { connectMcp } from '../orchestration/mcp-client.js';
import { createHostsWorld, hostsUnavailable, type HostsWorld } from './hosts-kit.js';

describe.skipIf(hostsUnavailable !== null)('fleetcom mcp with host', () => {
  let w: HostsWorld;
  beforeAll(async () => {
    w = await createHostsWorld();
    expect((await w.cli(['--host', 'alpha', 'up', '--detach'])).exitCode).toBe(0);
  });
  afterAll(async () => {
    await w?.cli(['--host', 'alpha', 'down']);
    await w?.close();
  });

  it("runs a claude with its first message on the host, waits for its turn, reads its reply, lists the host's tasks", async () => {
    const mcp = await connectMcp(w.local, { env: w.env });
    const run = await mcp.call('run', { command: 'claude', cwd: w.ssh.hosts.alpha!.dir, prompt: 'hello alpha', host: 'alpha' });
    expect(run.isError, run.texts.join('\n')).toBe(false);
    const { task, send } = run.json as { task: number; send: { verdict: string; turn: number } };
    expect(send).toMatchObject({ task, verdict: 'submitted', turn: 1 });
    expect((await mcp.call('wait', { tasks: [task], turn: 1, host: 'alpha' })).json).toMatchObject({ met: true });
    expect((await mcp.call('output', { task, host: 'alpha' })).json).toMatchObject({ task, turn: 1, text: 'fake reply to: hello alpha' });
    const ls = await mcp.call('ls', { host: 'alpha' });
    expect((ls.json as LsRecord[]).map((t) => [t.id, t.cwd])).toEqual([[task, w.ssh.hosts.alpha!.dir]]);
    // Here, no fleet runs: the same tool without host says so.
    expect((await mcp.call('ls', {})).texts[0]).toMatch(/exit 3: no fleet is running/);
  });
});
