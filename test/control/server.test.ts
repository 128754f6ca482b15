import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callSupervisor } from '../../src/control/client.js';
import { listenControl } from '../../src/control/server.js';
import { FleetError, NoFleetError } from '../../src/errors.js';

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
