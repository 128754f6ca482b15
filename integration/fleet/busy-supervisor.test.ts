// A supervisor that cannot answer never hangs a command (a stopped one is named at once, a
// silent one after its deadline), and one that is busy with a long change still answers reads.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { LsRecord } from '../../src/control/protocol.js';
import { lockText } from '../../src/fleet/lifecycle/lock.js';
import { identityOf } from '../../src/fleet/lifecycle/process-identity.js';
import { runCli } from '../helpers/cli.js';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { supervisorBelowShell } from '../helpers/supervisor.js';
import { waitFor } from '../helpers/wait-for.js';

/** A process this test stopped: continued, then killed, whatever the test's outcome. */
function stopForGood(pid: number): void {
  for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

function procState(pid: number): string | undefined {
  return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
}

describe('a stopped supervisor', () => {
  it('fails ls, run, rerun and next at once naming it, completion offers no task; continued, all work again', async () => {
    const sb = await useSandbox();
    // Below a shell, as `fleetcom up` typed in a pane is: tmux continues its pane's own process.
    const fleet = await startFleet(sb, { underShell: true });
    const pid = await supervisorBelowShell(sb, fleet.supervisorPane);
    const done = await fleet.run('true');
    await fleet.waitTask(done, (t) => t.state === 'exited', 'exited');
    process.kill(pid, 'SIGSTOP');
    onTestFinished(() => stopForGood(pid));
    await waitFor(() => procState(pid) === 'T', { what: 'the supervisor to stop' });

    const commands = [['ls'], ['ls', '--json'], ['run', '--', 'sleep', '60'], ['rerun', done], ['next'], ['__complete', '--', 'rerun', '']];
    const started = Date.now();
    const results = await Promise.all(commands.map((args) => fleet.cli(...args)));
    // Within the deadline, with slack for six node starts on a loaded machine; the message below
    // shows each was told before sending anything, not after waiting.
    expect(Date.now() - started).toBeLessThan(15_000);
    for (const [i, r] of results.entries()) {
      const args = commands[i]!;
      if (args[0] === '__complete') {
        expect({ args, exitCode: r.exitCode, stdout: r.stdout }).toEqual({ args, exitCode: 0, stdout: '' });
        continue;
      }
      expect({ args, exitCode: r.exitCode, stdout: r.stdout }).toEqual({ args, exitCode: 1, stdout: '' });
      expect(r.stderr).toBe(`fleetcom: the supervisor (pid ${pid}) is stopped and cannot answer; continue it with: kill -CONT ${pid}\n`);
    }

    process.kill(pid, 'SIGCONT');
    expect((await fleet.cli('ls', '--json')).exitCode).toBe(0);
    expect((await fleet.cli('run', '--', 'sleep', '60')).exitCode).toBe(0);
    expect((await fleet.cli('rerun', done)).exitCode).toBe(0);
    const next = await fleet.cli('next');
    expect([next.exitCode, next.stderr]).toEqual([1, 'no task needs you\n']);
    expect((await fleet.cli('__complete', '--', 'rerun', '')).stdout).toMatch(new RegExp(`^${done}\\t`, 'm'));
  });
});

describe('a supervisor that takes a request and never answers', () => {
  it('fails ls after its 5 s deadline naming the pid the lock names; completion gives up within half a second', async () => {
    const sb = await useSandbox();
    const runtime = sb.env.FLEETCOM_RUNTIME_DIR!;
    mkdirSync(runtime, { mode: 0o700 });
    // Hung, not stopped: alive and running, it just never answers.
    const holder = spawn('sleep', ['600'], { stdio: 'ignore' });
    onTestFinished(() => void holder.kill('SIGKILL'));
    writeFileSync(join(runtime, 'lock'), lockText(identityOf(holder.pid!)!), { mode: 0o600 });
    const taken: Socket[] = [];
    const server = createServer((socket) => void taken.push(socket));
    await new Promise<void>((resolve) => server.listen(join(runtime, 'default.sock'), resolve));
    onTestFinished(() => {
      server.close();
      for (const socket of taken) socket.destroy();
    });
    const cli = (...args: string[]) => runCli(args, { env: sb.env, cwd: sb.dir });

    let started = Date.now();
    const ls = await cli('ls', '--json');
    const took = Date.now() - started;
    expect([ls.exitCode, ls.stdout]).toEqual([1, '']);
    expect(ls.stderr).toContain(`fleetcom: the supervisor (pid ${holder.pid}) did not answer within 5 s on ${join(runtime, 'default.sock')}`);
    expect(took).toBeGreaterThanOrEqual(5_000);
    expect(took).toBeLessThan(20_000);

    started = Date.now();
    const completion = await cli('__complete', '--', 'rerun', '');
    expect([completion.exitCode, completion.stdout]).toEqual([0, '']);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe('a long load in flight', () => {
  it('does not hold up ls --json: it answers from the fleet as it is, before the load ends', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const TASKS = 60;
    const file = `${sb.dir}/many.json`;
    writeFileSync(file, JSON.stringify({ version: 1, name: 'many', dirs: { [sb.dir]: Array.from({ length: TASKS }, (_, i) => `sleep ${1000 + i}`) } }));
    const windows = async () => (await sb.tmux('list-windows', '-t', fleet.session, '-F', '#{window_id}')).split('\n').filter(Boolean).length;
    let loadEnded = false;
    const load = fleet.cli('load', file).then((r) => ((loadEnded = true), r));
    // tmux is making the load's windows (several calls of about ten each): the load is in flight.
    await waitFor(async () => (await windows()) > 1 || loadEnded, { what: 'the load to start making windows' });
    expect(loadEnded).toBe(false);
    const ls = await fleet.cli('ls', '--json');
    // Answered while the load still ran, from the fleet before it: none of its tasks is in yet.
    expect(loadEnded).toBe(false);
    expect(ls.exitCode).toBe(0);
    expect(JSON.parse(ls.stdout) as LsRecord[]).toEqual([]);
    const loaded = await load;
    expect(loaded.exitCode).toBe(0);
    expect(loaded.stderr).toContain(`loaded 'many': ${TASKS} task(s)`);
    expect(await fleet.ls()).toHaveLength(TASKS);
  });
});
