import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callSupervisor } from '../../src/control/client.js';
import { listenControl } from '../../src/control/server.js';
import { FleetError, NoFleetError } from '../../src/errors.js';
import { lockText } from '../../src/fleet/lifecycle/lock.js';
import { identityOf } from '../../src/fleet/lifecycle/process-identity.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function socketPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetcom-ctl-'));
  dirs.push(dir);
  return join(dir, 'default.sock');
}

function rawExchange(socket: string, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(socket, () => client.write(text));
    let reply = '';
    client.setEncoding('utf8');
    client.on('data', (d: string) => (reply += d));
    client.on('end', () => resolve(reply));
    client.on('error', reject);
  });
}

describe('control socket', () => {
  it('answers garbage with an error reply and keeps serving', async () => {
    const socket = socketPath();
    const server = await listenControl(socket, async (request) => (request.op === 'ls' ? [] : { tasks: [] }));
    try {
      expect(statSync(socket).mode & 0o777).toBe(0o600);
      expect(JSON.parse(await rawExchange(socket, 'garbage\n'))).toEqual({ ok: false, error: 'request is not valid JSON', exitCode: 1 });
      expect(await callSupervisor(socket, { op: 'ls' })).toEqual([]);
      // A reply of another shape than its op's is refused, not handed on.
      await expect(callSupervisor(socket, { op: 'save' })).rejects.toThrow('the supervisor sent an unreadable save reply: (reply): expected an array, got object');
    } finally {
      server.close();
    }
  });

  it('turns a handler failure into an error reply with its exit code', async () => {
    const socket = socketPath();
    const server = await listenControl(socket, async () => {
      throw new FleetError('no task 9 in this fleet', 1);
    });
    try {
      await expect(callSupervisor(socket, { op: 'kill', task: '9' })).rejects.toThrow('no task 9 in this fleet');
    } finally {
      server.close();
    }
  });

  it('reports no fleet (exit 3) when nothing listens', async () => {
    const error = await callSupervisor(socketPath(), { op: 'ls' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoFleetError);
    expect((error as NoFleetError).exitCode).toBe(3);
  });
});

/** A listener that takes every connection and never answers: a hung supervisor. */
async function silentServer(socket: string): Promise<Server> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return server;
}

function writeLock(socket: string, pid: number): void {
  writeFileSync(join(socket, '..', 'lock'), lockText(identityOf(pid)!), { mode: 0o600 });
}

describe('a supervisor that does not answer', () => {
  it('fails the call after its silence, naming the pid the lock names', async () => {
    const socket = socketPath();
    writeLock(socket, process.pid);
    const server = await silentServer(socket);
    try {
      const started = Date.now();
      const error = await callSupervisor(socket, { op: 'ls' }, { silenceMs: 300 }).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(error).toBeInstanceOf(FleetError);
      expect((error as FleetError).exitCode).toBe(1);
      expect((error as Error).message).toBe(
        `the supervisor (pid ${process.pid}) did not answer within 0.3 s on ${socket}; it may be hung: look at its tmux pane, ` +
          `or stop it (kill ${process.pid}) and run fleetcom up again, which adopts its tasks`,
      );
    } finally {
      server.close();
    }
  });

  it('is not called silent when its answer came while the client had no CPU for the whole deadline', async () => {
    const socket = socketPath();
    // The server answers, then this process (the client's) runs nothing for longer than the
    // silence: when it runs again, the deadline is due and the answer waits in the socket.
    const server = createServer((conn) => conn.once('data', () => {
      conn.end(`${JSON.stringify({ ok: true, result: [] })}\n`);
      const until = Date.now() + 500;
      while (Date.now() < until) { /* starved */ }
    }));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      expect(await callSupervisor(socket, { op: 'ls' }, { silenceMs: 200 })).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('is named stopped before anything is sent when the lock names a stopped process', async () => {
    const socket = socketPath();
    const stopped = spawn('sleep', ['600'], { stdio: 'ignore' });
    let connections = 0;
    const server = createServer(() => (connections += 1));
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      writeLock(socket, stopped.pid!);
      process.kill(stopped.pid!, 'SIGSTOP');
      await expect.poll(() => statOf(stopped.pid!)).toBe('T');
      await expect(callSupervisor(socket, { op: 'ls' })).rejects.toThrow(`the supervisor (pid ${stopped.pid}) is stopped and cannot answer; continue it with: kill -CONT ${stopped.pid}`);
      expect(connections).toBe(0);
    } finally {
      server.close();
      process.kill(stopped.pid!, 'SIGCONT');
      stopped.kill('SIGKILL');
    }
  });

  it('is named stopped when it is stopped after the call has begun, without waiting out the silence', async () => {
    const socket = socketPath();
    const supervisor = spawn('sleep', ['600'], { stdio: 'ignore' });
    const server = createServer(() => {
      // Stopped once the request is in: the first look before sending saw it running.
      process.kill(supervisor.pid!, 'SIGSTOP');
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      writeLock(socket, supervisor.pid!);
      // A silence far past the test's timeout: only the look while waiting can end this call.
      await expect(callSupervisor(socket, { op: 'ls' }, { silenceMs: 600_000 })).rejects.toThrow(
        `the supervisor (pid ${supervisor.pid}) is stopped and cannot answer; continue it with: kill -CONT ${supervisor.pid}`,
      );
    } finally {
      server.close();
      process.kill(supervisor.pid!, 'SIGCONT');
      supervisor.kill('SIGKILL');
    }
  });

  it('keeps a long request alive with keepalives: silence, not length, ends a call', async () => {
    const socket = socketPath();
    const server = await listenControl(socket, async () => {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      return [];
    });
    try {
      expect(await callSupervisor(socket, { op: 'ls' }, { silenceMs: 1_500 })).toEqual([]);
    } finally {
      server.close();
    }
  });
});

function statOf(pid: number): string | undefined {
  return /\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
}
