// Fleets on several hosts through real OpenSSH: two sshd "hosts" on the loopback of a private
// network namespace, each forcing its sessions into a sandbox of its own (ssh-hosts.mjs), and
// a local fleetcom that reaches them with its own ssh config. One world for the file: each
// test goes on from the fleets the previous one left.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { execa } from 'execa';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HARNESS_NAMES } from '../../src/harness/names.js';
import { socketHolder } from '../../src/remote/control-socket.js';
import { personFormat, personsOnly } from '../helpers/client.js';
import { startFleet } from '../helpers/fleet.js';
import { pressKeys, typeLine } from '../helpers/pane.js';
import { processAlive } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { createHostsWorld, hostsUnavailable, type HostsWorld } from './hosts-kit.js';

if (hostsUnavailable !== null) console.warn(`skipping the OpenSSH hosts tests: ${hostsUnavailable}`);

interface Row { host: string | null; id: number; run: number; name: string | null; state: string; command: string | null; conversationId: string | null; paneId: string }

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

  it('hosts check says what each host has, and names what is missing there', async () => {
    const r = await w.cli(['hosts', 'check', '--hosts', 'alpha,beta', '--json']);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(r.stdout) as Array<{ host: string; ok: boolean; facts: { tmux: { version: string }; agents: Record<string, string | null>; fleet: string }; missing: string[] }>;
    expect(report.map((h) => [h.host, h.ok, h.facts.fleet, h.missing])).toEqual([['alpha', true, 'running', []], ['beta', true, 'running', []]]);
    expect(report[0]!.facts.tmux.version).toMatch(/^tmux \d/);
    expect(Object.keys(report[0]!.facts.agents), 'every agent fleetcom knows').toEqual([...HARNESS_NAMES]);
    const none = await w.cli(['hosts', 'check', '--hosts', 'alpha'], { env: { FLEETCOM_REMOTE_COMMAND: 'fleetcom-not-installed' } });
    expect(none.exitCode).toBe(1);
    expect(none.stdout).toMatch(/^alpha: fleetcom-not-installed was not found there \(.*not found\); install fleetcom on alpha/m);
  });

  it('saves one recipe of every host, checks it on each host, and loads it back into every conversation after both tmux servers died', async () => {
    const slow = { FLEETCOM_HOST_TIMEOUT: '30' };
    const ids: Record<string, string> = {};
    for (const name of ['alpha', 'beta']) {
      const host = w.ssh.hosts[name]!;
      const work = join(host.dir, 'work');
      mkdirSync(work, { recursive: true });
      const id = (await w.cli(['--host', name, 'run', '--cwd', work, '--', 'claude'])).stdout.trim();
      const pane = (await rows()).find((r) => r.host === name && String(r.id) === id)!.paneId;
      // The first message makes the conversation resumable (its transcript gets a user record).
      await waitFor(() => {
        execFileSync('tmux', ['-S', host.tmuxSocket, 'send-keys', '-t', pane, `hello from ${name}`, 'Enter']);
        return readFileSync(join(host.dir, 'agents.log'), 'utf8').includes('claude');
      }, { what: `the claude on ${name} to start` });
    }
    const agents = await waitFor(async () => {
      const all = (await rows()).filter((r) => r.command?.startsWith('claude') && r.conversationId !== null);
      return all.length === 2 && all;
    }, { what: 'a conversation of the claude on each host' });
    for (const r of agents) ids[r.host!] = r.conversationId!;
    expect(ids.alpha).not.toBe(ids.beta);
    for (const name of ['alpha', 'beta']) {
      const host = w.ssh.hosts[name]!;
      const transcript = join(host.env.CLAUDE_CONFIG_DIR!, 'projects', join(host.dir, 'work').replace(/[^A-Za-z0-9]/g, '-'), `${ids[name]}.jsonl`);
      await waitFor(() => existsSync(transcript) && readFileSync(transcript, 'utf8').includes('"type":"user"'), { what: `the first message of the claude on ${name}` });
    }

    const file = join(w.local.dir, 'everywhere.json');
    const saved = await w.cli(['save', 'everywhere', '--all-hosts', '--hosts', 'alpha,beta', '--output', file], { env: slow });
    expect(saved.stderr).toBe('this machine: no fleet running, nothing of it saved\nsaved \'everywhere\': 4 command(s) (2 resumable)\n');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.version).toBe(2);
    expect(doc.dirs).toEqual({});
    for (const name of ['alpha', 'beta']) {
      const work = join(w.ssh.hosts[name]!.dir, 'work');
      // Each host wrote its own entries: its own resume command, its dir under its own HOME-less path.
      expect(doc.hosts[name][work]).toEqual([`claude --resume '${ids[name]}'`]);
    }

    for (const name of ['alpha', 'beta']) execFileSync('tmux', ['-S', w.ssh.hosts[name]!.tmuxSocket, 'kill-server']);
    for (const name of ['alpha', 'beta']) {
      await waitFor(async () => (await w.cli(['--host', name, 'ls'])).exitCode === 3, { what: `the fleet of ${name} to be gone` });
    }

    const doctor = await w.cli(['doctor', file], { env: slow });
    expect(doctor.exitCode).toBe(0);
    expect(doctor.stderr).toMatch(/^host alpha: 2 entries, 2 would start, 0 would fail$/m);
    expect(doctor.stdout).toMatch(/^host beta:\nENTRY /m);

    const loaded = await w.cli(['load', file], { env: slow });
    expect(loaded.exitCode).toBe(0);
    expect(loaded.stderr).toMatch(/^host alpha: started a fleet there \(tmux session fleetcom\)\nhost alpha: loaded 'everywhere': 2 task\(s\)$/m);
    expect(loaded.stderr).toMatch(/^host beta: loaded 'everywhere': 2 task\(s\)$/m);
    for (const name of ['alpha', 'beta']) {
      const log = join(w.ssh.hosts[name]!.dir, 'agents.log');
      const resumed = await waitFor(() => {
        const starts = readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { agent: string; argv: string[]; cwd: string });
        return starts.find((s) => s.agent === 'claude' && s.argv.includes('--resume'));
      }, { what: `the claude on ${name} resumed` });
      expect(resumed.argv.slice(resumed.argv.indexOf('--resume'), resumed.argv.indexOf('--resume') + 2)).toEqual(['--resume', ids[name]]);
      expect(resumed.cwd).toBe(join(w.ssh.hosts[name]!.dir, 'work'));
    }
    const after = await rows();
    expect(after.filter((r) => r.host === 'alpha').map((r) => r.command)).toEqual(expect.arrayContaining([`claude --resume '${ids.alpha}'`, 'sleep 100000']));
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
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
    await waitFor(() => !processAlive(second!), { what: 'the stopped master to be killed' });
    const third = socketHolder(socket);
    expect(third).not.toBeNull();
    expect([first, second]).not.toContain(third);
  });

  it('shows a host that stops answering as unreachable within the deadline, and the other one answering', async () => {
    const beta = w.ssh.hosts.beta!;
    beta.freeze();
    try {
      const r = await w.cli(['ls', '--all-hosts', '--hosts', 'alpha,beta', '--json'], { env: { FLEETCOM_HOST_TIMEOUT: '12' } });
      expect(r.exitCode).toBe(1);
      expect(new Set((JSON.parse(r.stdout) as Row[]).map((row) => row.host))).toEqual(new Set(['alpha']));
      expect(r.stderr).toBe('fleetcom: host beta: no answer within 12 s\n');
      // The deadline, plus this fleetcom's start and the ssh clients on a loaded 2-core
      // machine (the deadline itself leaves alpha room for its own ssh and Node start).
      // (12 s: alpha's own answer took up to ~8 s with the whole suite running at load 25.)
      expect(r.ms).toBeLessThan(12_000 + 6000);
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

  it("shows a host's tasks in the dashboard, peeks at one and reruns it there, opens its window over ssh, and next goes to the one waiting on you", async () => {
    const alpha = w.ssh.hosts.alpha!;
    const remoteTmux = (...args: string[]) => execFileSync('tmux', ['-S', alpha.tmuxSocket, ...args], { encoding: 'utf8' }).trim();
    const peekMe = (await w.cli(['--host', 'alpha', 'run', '--cwd', alpha.dir, '--name', 'peek-me', '--', 'sh', '-c', 'echo remote-peek-token; sleep 1'])).stdout.trim();
    // gamma is no host of the ssh config: it stays a line with ssh's reason, never holding alpha's rows.
    const fleet = await startFleet(w.local, { headless: false, env: w.ssh.localEnv, args: ['--hosts', 'alpha,gamma'] });
    const dash = fleet.supervisorPane;
    const screen = () => w.local.ops.capturePane(dash, { history: false });
    const waitForScreen = (needle: RegExp, what: string) => waitFor(async () => needle.test(await screen()), { what: `the dashboard to show ${what}` })
      .catch(async (e: Error) => {
        throw new Error(`${e.message}\n--- dashboard ---\n${await screen()}`);
      });
    await waitForScreen(/^alpha \(3\)$/m, "alpha's section");
    await waitForScreen(/^gamma: unreachable: ssh: .*gamma/m, 'gamma unreachable');
    // The resumed claude waits at its prompt: first in alpha's section, in the waiting colour's place.
    await waitForScreen(/^alpha \(3\)\n› ❯ {2}claude --resume .* is waiting for you/m, "alpha's claude waiting for you");

    // A client, for the peek's popup; what it draws is kept in a typescript file.
    const drawn = join(w.local.dir, 'client.typescript');
    // As large as the fleet's window, so the popup holds the finished pane's lines above its `Pane is dead`.
    const client = execa('script', ['-qfec', `stty rows 50 cols 160; tmux -S '${w.local.socket}' attach-session -t '${fleet.session}'`, drawn], {
      env: { ...w.local.env, TERM: 'xterm-256color' }, extendEnv: false, stdin: 'pipe', stdout: 'ignore', stderr: 'ignore', reject: false,
    });
    try {
      await waitFor(async () => personsOnly(await w.local.tmux('list-clients', '-F', personFormat('#{client_name}'))) !== '', { what: 'an attached client' });
      await pressKeys(w.local, dash, '/');
      await typeLine(w.local, dash, 'peek-me');
      // Finished (r reruns a finished task), its last screen still there to peek at.
      await waitForScreen(/^› ✓ {2}peek-me/m, 'peek-me selected, finished');
      await pressKeys(w.local, dash, 'Space');
      await waitFor(() => existsSync(drawn) && readFileSync(drawn, 'utf8').includes('remote-peek-token'), { what: "the popup with alpha's screen of peek-me" })
        .catch(async (e: Error) => {
          throw new Error(`${e.message}\n--- dashboard ---\n${await screen()}`);
        });
      client.stdin?.write('x');

      await pressKeys(w.local, dash, 'r');
      await waitForScreen(new RegExp(`task ${peekMe} of alpha rerun`), 'the rerun in the status line');
      expect((await rows()).find((r) => r.host === 'alpha' && String(r.id) === peekMe)?.run).toBe(1);

      // Enter: a local window attached to alpha's tmux, on the claude's window there.
      const claude = (await rows()).find((r) => r.host === 'alpha' && r.command?.startsWith('claude --resume'))!;
      const claudeWindow = remoteTmux('display-message', '-p', '-t', claude.paneId, '#{window_id}');
      await pressKeys(w.local, dash, '/');
      await typeLine(w.local, dash, 'claude');
      await pressKeys(w.local, dash, 'Enter');
      const hostWindows = async () => (await w.local.tmux('list-windows', '-t', fleet.session, '-F', '#{window_active} #{window_id} #{@fleetcom-host}'))
        .split('\n').filter((l) => l.endsWith(' alpha'));
      const opened = await waitFor(async () => {
        const [line] = await hostWindows();
        return line?.startsWith('1 ') && line.split(' ')[1];
      }, { what: "alpha's window to open and be shown" });
      await waitFor(() => personsOnly(remoteTmux('list-clients', '-F', personFormat('#{window_id}'))) === claudeWindow, { what: "a client on alpha showing the claude's window" });

      // next, with nothing here waiting: alpha's claude, in the same window (alpha's tmux moved to it).
      const peekWindow = remoteTmux('display-message', '-p', '-t', (await rows()).find((r) => r.host === 'alpha' && String(r.id) === peekMe)!.paneId, '#{window_id}');
      remoteTmux('select-window', '-t', peekWindow);
      await w.local.tmux('select-window', '-t', (await w.local.tmux('display-message', '-p', '-t', dash, '#{window_id}')).trim());
      const next = await w.cli(['next']);
      expect(next).toMatchObject({ exitCode: 0, stdout: `alpha ${claude.id}\n` });
      expect(personsOnly(remoteTmux('list-clients', '-F', personFormat('#{window_id}')))).toBe(claudeWindow);
      expect(await hostWindows()).toEqual([`1 ${opened} alpha`]);
    } finally {
      client.kill();
      await w.cli(['down']);
    }
  });
});
