// send, wait, output and events on other hosts' fleets (real OpenSSH hosts on loopback, in a
// private network namespace: ssh-hosts.mjs): --host runs each there, a local --file goes along
// as the message, and events --all-hosts merges every host's stream, each line with its host.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamCli } from '../orchestration/stream-cli.js';
import { waitFor } from '../helpers/wait-for.js';
import { createHostsWorld, hostsUnavailable, type HostsWorld } from './hosts-kit.js';

describe.skipIf(hostsUnavailable !== null)('driving agents on other hosts', () => {
  let w: HostsWorld;
  beforeAll(async () => {
    w = await createHostsWorld();
    for (const host of ['alpha', 'beta']) expect((await w.cli(['--host', host, 'up', '--detach'])).exitCode).toBe(0);
  });
  afterAll(async () => {
    await w?.close();
  });

  it('runs an agent with --prompt, sends a local file, waits and reads the reply there; events --all-hosts tells both hosts', async () => {
    const feed = streamCli(['events', '--all-hosts', '--hosts', 'alpha,beta', '--json'], w.env, w.local.dir);
    const ids: Record<string, string> = {};
    // Connected once each host's stream shows a task started after it.
    await waitFor(async () => {
      for (const host of ['alpha', 'beta']) {
        if (ids[host] !== undefined && feed.lines().some((l) => l.includes(`"host":"${host}"`))) continue;
        const r = await w.cli(['--host', host, 'run', '--cwd', w.ssh.hosts[host]!.dir, '--', 'sleep', '1000']);
        ids[host] = r.stdout.trim();
      }
      return ['alpha', 'beta'].every((host) => feed.lines().some((l) => l.includes(`"host":"${host}"`)));
    }, { what: 'both hosts\' event streams', interval: 500, timeout: 60_000 });

    const ran = await w.cli(['--host', 'alpha', 'run', '--cwd', w.ssh.hosts.alpha!.dir, '--prompt', 'hello alpha', '--', 'claude'], { timeout: 90_000 });
    expect(ran.exitCode, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/: submitted \(turn 1\)/);
    const task = ran.stdout.trim();
    const file = join(w.local.dir, 'message.md');
    writeFileSync(file, 'from a file\nof this machine');
    const sent = await w.cli(['--host', 'alpha', 'send', task, '--file', file, '--json']);
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ verdict: 'submitted', turn: 2 });
    expect((await w.cli(['--host', 'alpha', 'wait', task, '--turn', '2'])).exitCode).toBe(0);
    expect((await w.cli(['--host', 'alpha', 'output', task])).stdout).toBe('fake reply to: from a file\nof this machine\n');

    await waitFor(() => feed.lines().some((l) => l.includes('"host":"alpha"') && l.includes('"type":"waiting"') && l.includes('"turn":2')), { what: "alpha's turn 2 in the merged stream" });
    const events = feed.lines().map((l) => JSON.parse(l) as { host?: string; type: string; task: number; turn?: number });
    const alpha = events.filter((e) => e.host === 'alpha' && String(e.task) === task).map((e) => `${e.type}${e.turn === undefined ? '' : ` ${e.turn}`}`);
    expect(alpha).toEqual(expect.arrayContaining(['started', 'working 1', 'waiting 1', 'working 2', 'waiting 2']));
    expect(events.some((e) => e.host === 'beta' && e.type === 'started')).toBe(true);
    for (const host of ['beta', 'alpha']) await w.cli(['--host', host, 'down']);
    // Both hosts' fleets went down: the merged stream ends, having said so for each, and that no fleet runs here.
    const ended = await feed.ended();
    expect(ended.code).toBe(0);
    expect(ended.stderr.split('\n').filter(Boolean).sort()).toEqual(['alpha: events ended: the fleet went down', 'beta: events ended: the fleet went down', 'this machine: no fleet running']);
  });
});
