// A task on a configured host that needs the user alerts on this machine, through this fleet's
// rules and targets, naming the host — from a headless supervisor too (no dashboard open to ask
// the hosts). Real OpenSSH on a private network namespace (ssh-hosts.mjs); the alert target is
// a loopback webhook the test starts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertSink } from '../helpers/alert-sink.js';
import { startFleet } from '../helpers/fleet.js';
import { waitFor } from '../helpers/wait-for.js';
import { createHostsWorld, hostsUnavailable, type HostsWorld } from './hosts-kit.js';

if (hostsUnavailable !== null) console.warn(`skipping the OpenSSH host alerts tests: ${hostsUnavailable}`);

describe.skipIf(hostsUnavailable !== null)('alerts for the tasks of a host', () => {
  let w: HostsWorld;
  beforeAll(async () => {
    w = await createHostsWorld();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('a headless supervisor alerts once for a claude waiting on alpha, naming alpha; a second one alerts alone; a host that stops answering is logged once and alerts again when back', async () => {
    const sink = await alertSink();
    const configDir = w.local.env.FLEETCOM_CONFIG_DIR!;
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ notify: { delaySeconds: 1, cooldownSeconds: 0, targets: [{ type: 'webhook', url: sink.url }] } }));
    const alpha = w.ssh.hosts.alpha!;
    expect((await w.cli(['--host', 'alpha', 'up', '--detach'])).exitCode).toBe(0);
    const first = Number((await w.cli(['--host', 'alpha', 'run', '--cwd', alpha.dir, '--', 'claude'])).stdout.trim());
    expect(first).toBe(1);

    const fleet = await startFleet(w.local, { env: w.ssh.localEnv, args: ['--hosts', 'alpha,beta'] });
    try {
      await waitFor(() => sink.requests.length === 1, { what: "the alert for alpha's waiting claude", timeout: 60_000 }).catch(async (e: Error) => {
        throw new Error(`${e.message}\n--- supervisor ---\n${await fleet.log()}`);
      });
      expect(sink.requests[0]?.body).toMatchObject({
        title: 'fleetcom: claude on alpha', text: 'claude is waiting for you',
        task: first, label: 'claude', attention: 'waiting', host: 'alpha', directory: alpha.dir, tasks: [{ task: first, host: 'alpha' }],
      });

      // A second claude there: its own alert, the first (still waiting, asked about every round) not again.
      const second = Number((await w.cli(['--host', 'alpha', 'run', '--cwd', alpha.dir, '--', 'claude'])).stdout.trim());
      await waitFor(() => sink.requests.length >= 2, { what: "the alert for alpha's second claude", timeout: 60_000 });
      expect(sink.requests[1]?.body).toMatchObject({ task: second, host: 'alpha', tasks: [{ task: second }] });
      expect(sink.requests).toHaveLength(2);

      // beta runs no fleet (an answer, not a failure). alpha's sshd stopped: one log line for
      // the rounds it misses, its tasks unknown rather than gone (nothing alerts again when it is back).
      alpha.stop();
      await waitFor(async () => (await fleet.log()).includes('host alpha did not answer'), { what: 'alpha not answering, logged', timeout: 60_000 });
      await alpha.start();
      const third = Number((await w.cli(['--host', 'alpha', 'run', '--cwd', alpha.dir, '--', 'claude'])).stdout.trim());
      await waitFor(() => sink.requests.length >= 3, { what: "the alert for alpha's third claude, alpha back", timeout: 60_000 });
      expect(sink.requests[2]?.body).toMatchObject({ task: third, host: 'alpha', tasks: [{ task: third }] });
      expect(sink.requests).toHaveLength(3);
      expect((await fleet.log()).split('host alpha did not answer').length - 1).toBe(1);
    } finally {
      await fleet.cli('down');
    }
  });
});
