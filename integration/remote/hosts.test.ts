// Fleets on several hosts through real OpenSSH: two sshd "hosts" on the loopback of a private
// network namespace, each forcing its sessions into a sandbox of its own (ssh-hosts.mjs), and
// a local fleetcom that reaches them with its own ssh config. One world for the file: each
// test goes on from the fleets the previous one left.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketHolder } from '../../src/remote/control-socket.js';
import { processAlive } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { createHostsWorld, hostsUnavailable, type HostsWorld } from './hosts-kit.js';

if (hostsUnavailable !== null) console.warn(`skipping the OpenSSH hosts tests: ${hostsUnavailable}`);

interface Row { host: string | null; id: number; run: number; name: string | null; state: string; command: string | null }

describe.skipIf(hostsUnavailable !== null)('fleets on several hosts', () => {
  let w: HostsWorld;
  beforeAll(async () => {
    w = await createHostsWorld();
  });
  afterAll(async () => {
    await w?.close();
  });

  const rows = async (): Promise<Row[]> => {
    const r = await w.cli(['ls', '--all-hosts', '--hosts', 'alpha,beta', '--json']);
    expect(r.stderr).toBe('');
    return JSON.parse(r.stdout) as Row[];
  };

  it('refuses a host that ssh would read as an option, or one with whitespace, before running anything', async () => {
    const marker = join(w.local.dir, 'pwned');
    for (const host of [`-oProxyCommand=touch ${marker}`, 'alpha beta', 'alpha\n-oProxyCommand=x']) {
      const r = await w.cli(['--host', host, 'ls']);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^fleetcom: --host .*: refused, it /);
    }
    const viaEnv = await w.cli(['ls'], { env: { FLEETCOM_HOST: `-oProxyCommand=touch ${marker}` } });
    expect(viaEnv.stderr).toMatch(/^fleetcom: FLEETCOM_HOST .*: refused/);
    const listed = await w.cli(['ls', '--all-hosts', '--hosts', `alpha,-oProxyCommand=touch ${marker}`]);
    expect(listed.exitCode).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('runs, renames and reruns tasks on two hosts with --host, words reaching each exactly, and lists them all with --all-hosts', async () => {
    for (const host of ['alpha', 'beta']) {
      const none = await w.cli(['--host', host, 'ls']);
      expect(none.exitCode).toBe(3);
      expect((await w.cli(['--host', host, 'up', '--detach'])).exitCode).toBe(0);
    }
    const alpha = w.ssh.hosts.alpha!;
    const beta = w.ssh.hosts.beta!;
    const ran = await w.cli(['--host', 'alpha', 'run', '--cwd', alpha.dir, '--', 'sleep', '100000']);
    expect(ran).toMatchObject({ exitCode: 0, stdout: '1\n' });
    const hostile = `it's $(touch ${join(w.local.dir, 'pwned')}) \`id\` "q" ; | & \\ ~`;
    expect((await w.cli(['rename', '1', hostile], { env: { FLEETCOM_HOST: 'alpha' } })).exitCode).toBe(0);
    const once = await w.cli(['--host', 'beta', 'run', '--cwd', beta.dir, '--name', 'once', '--', 'sh', '-c', 'exit 0']);
    expect(once.exitCode).toBe(0);
    await waitFor(async () => (await rows()).find((r) => r.host === 'beta' && r.name === 'once')?.state === 'exited', { what: 'the task on beta to exit' });
    expect((await w.cli(['rerun', '--host', 'beta', '1'])).stderr).toBe('task 1 rerun\n');

    const all = await rows();
    expect(all.map((r) => [r.host, r.id, r.name ?? r.command])).toEqual([['alpha', 1, hostile], ['beta', 1, 'once']]);
    expect(all.find((r) => r.host === 'beta')?.run).toBe(1);
    expect(existsSync(join(w.local.dir, 'pwned'))).toBe(false);

    const table = await w.cli(['ls', '--all-hosts', '--hosts', 'alpha,beta']);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^this machine: no fleet running\n\nalpha\nID +ST +TASK.*\n1 .*it's \$\(touch/m);
    expect(table.stdout).toMatch(/^beta\nID .*\n1 .*once/m);
  });

  it('replaces a dead control master and a stopped one instead of waiting on it', async () => {
    const socket = w.controlSocket('alpha');
    const first = socketHolder(socket);
    expect(first).not.toBeNull();
    process.kill(first!, 'SIGKILL');
    await waitFor(() => !processAlive(first!), { what: 'the master to die' });
    expect(existsSync(socket)).toBe(true); // a stale socket, refused from now on
    expect((await w.cli(['--host', 'alpha', 'ls'])).exitCode).toBe(0);
    const second = socketHolder(socket);
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);

    // A stopped master still accepts on its socket and never answers: every call through it would hang.
    process.kill(second!, 'SIGSTOP');
    const r = await w.cli(['--host', 'alpha', 'ls', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(1);
    await waitFor(() => !processAlive(second!), { what: 'the stopped master to be killed' });
    const third = socketHolder(socket);
    expect(third).not.toBeNull();
    expect([first, second]).not.toContain(third);
  });

  it('shows a host that stops answering as unreachable within the deadline, and the other one answering', async () => {
    const beta = w.ssh.hosts.beta!;
    beta.freeze();
    try {
      const r = await w.cli(['ls', '--all-hosts', '--hosts', 'alpha,beta', '--json'], { env: { FLEETCOM_HOST_TIMEOUT: '6' } });
      expect(r.exitCode).toBe(1);
      expect((JSON.parse(r.stdout) as Row[]).map((row) => row.host)).toEqual(['alpha']);
      expect(r.stderr).toBe('fleetcom: host beta: no answer within 6 s\n');
      // The deadline, plus this fleetcom's start and the ssh clients on a loaded 2-core
      // machine (the deadline itself leaves alpha room for its own ssh and Node start).
      expect(r.ms).toBeLessThan(6000 + 4000);
    } finally {
      beta.thaw();
    }
    beta.stop();
    const stopped = await w.cli(['ls', '--all-hosts', '--hosts', 'alpha,beta']);
    expect(stopped.exitCode).toBe(1);
    expect(stopped.stdout).toMatch(/^beta: unreachable: ssh: connect to host 127\.0\.0\.1 port \d+: Connection refused$/m);
    expect(stopped.stdout).toMatch(/^alpha\nID /m);
    await beta.start();
  });
});
