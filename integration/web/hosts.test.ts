// The page's list with a configured host (a real OpenSSH "host" on this machine, reached
// through fleetcom's own ssh settings): its tasks with their attention, and how to reach one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostsWorld, hostsUnavailable, type HostsWorld } from '../remote/hosts-kit.js';
import { waitFor } from '../helpers/wait-for.js';
import { startWeb } from '../helpers/web.js';

if (hostsUnavailable !== null) console.warn(`skipping the web page's hosts test: ${hostsUnavailable}`);

interface Section {
  title: string;
  host: string | null;
  note: string | null;
  tasks: Array<{ id: number; host: string | null; label: string; attention: string | null; text: string; terminal: boolean; reach: string | null }>;
}

describe.skipIf(hostsUnavailable !== null)('fleetcom web with a configured host', () => {
  let w: HostsWorld;
  beforeAll(async () => {
    w = await createHostsWorld();
  });
  afterAll(async () => {
    await w?.close();
  });

  it('lists the host\'s tasks after this machine\'s, a waiting agent first, each with the way to reach it', async () => {
    expect((await w.cli(['--host', 'alpha', 'up', '--detach'])).exitCode).toBe(0);
    const alpha = w.ssh.hosts.alpha!;
    expect((await w.cli(['--host', 'alpha', 'run', '--cwd', alpha.dir, '--', 'sleep', '100000'])).exitCode).toBe(0);
    expect((await w.cli(['--host', 'alpha', 'run', '--cwd', alpha.dir, '--', 'claude'])).exitCode).toBe(0);
    mkdirSync(w.env.FLEETCOM_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(w.env.FLEETCOM_CONFIG_DIR!, 'config.json'), JSON.stringify({ hosts: ['alpha', 'nowhere.invalid'] }));
    const web = await startWeb(w.local, [], w.env);
    const sections = await waitFor(async () => {
      const doc = (await (await web.fetch('/api/fleet')).json()) as { fleet: boolean; sections: Section[] };
      const host = doc.sections.find((s) => s.host === 'alpha');
      return host?.tasks.some((t) => t.attention === 'waiting') ? doc.sections : false;
    }, { what: 'alpha\'s tasks on the page, its claude waiting', timeout: 60_000 });
    const host = sections.find((s) => s.host === 'alpha')!;
    expect(host.tasks.map((t) => [t.id, t.label, t.attention])).toEqual([[2, 'claude', 'waiting'], [1, 'sleep 100000', null]]);
    expect(host.tasks[0]).toMatchObject({ host: 'alpha', terminal: false, text: 'claude is waiting for you' });
    expect(host.tasks[0]!.reach).toMatch(/^ssh -t alpha 'tmux -S \S+ attach-session -t @\d+'$/);
    const nowhere = sections.find((s) => s.host === 'nowhere.invalid');
    expect(nowhere?.note).toMatch(/^unreachable: |asking/);
  });
});
