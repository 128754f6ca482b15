import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { streamSupervisor } from '../../src/control/client.js';
import { listenControl } from '../../src/control/server.js';
import { Streamed, takeEvents } from '../../src/control/stream.js';
import { FleetError } from '../../src/errors.js';
import { waitFor } from '../helpers/wait-for.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function socketPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fleetcom-stream-'));
  dirs.push(dir);
  return join(dir, 'default.sock');
}

describe('splitting a streamed exchange', () => {
  it.each([
    ['two events and a reply', '{"event":1}\n  {"event":{"a":2}}\n{"ok":true,"result":3}\n', [1, { a: 2 }], '{"ok":true,"result":3}\n'],
    ['an event line still arriving', '{"event":1}\n{"event":{"a":', [1], '{"event":{"a":'],
    ['keepalive spaces only', '   ', [], '   '],
    ['a reply with no events', ' {"ok":true,"result":null}\n', [], ' {"ok":true,"result":null}\n'],
  ])('%s', (_, text, events, rest) => {
    expect(takeEvents(text)).toEqual({ events, rest });
  });

  it('throws on an event line that is not JSON', () => {
    expect(() => takeEvents('{"event":nope}\n')).toThrow();
  });
});

describe('a streamed reply', () => {
  it('delivers each event in order, then the result', async () => {
    const socket = socketPath();
    const server = await listenControl(socket, async () =>
      new Streamed(async (out) => {
        for (let i = 0; i < 3; i++) out.send({ n: i });
        return { ids: [7], errors: [] };
      }),
    );
    try {
      const seen: unknown[] = [];
      const result = await streamSupervisor(socket, { op: 'load', tasks: [], env: {} }, { onEvent: (e) => void seen.push(e) });
      expect(seen).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
      expect(result).toEqual({ ids: [7], errors: [] });
    } finally {
      server.close();
    }
  });

  it('ends from the client side on stop, and the producer sees its signal aborted', async () => {
    const socket = socketPath();
    let aborted = false;
    const server = await listenControl(socket, async () =>
      new Streamed(async (out) => {
        out.send('first');
        out.send('second');
        await new Promise<void>((resolve) => out.signal.addEventListener('abort', () => resolve()));
        aborted = true;
        return null;
      }),
    );
    try {
      const seen: unknown[] = [];
      const result = await streamSupervisor(socket, { op: 'down' }, { onEvent: (e) => (seen.push(e), e === 'first' ? 'stop' : undefined) });
      expect(result).toBeNull();
      expect(seen).toEqual(['first']);
      await waitFor(() => aborted, { what: 'the stream aborted on the supervisor side' });
    } finally {
      server.close();
    }
  });

  it('passes a failure of the event handler to the caller', async () => {
    const socket = socketPath();
    const server = await listenControl(socket, async () => new Streamed(async (out) => (out.send({ bad: true }), null)));
    try {
      await expect(
        streamSupervisor(socket, { op: 'down' }, {
          onEvent: () => {
            throw new FleetError('event of the wrong shape');
          },
        }),
      ).rejects.toThrow('event of the wrong shape');
    } finally {
      server.close();
    }
  });

  it('holds a producer faster than its reader at the socket: send says full, drained waits for the reader', async () => {
    const socket = socketPath();
    let full = 0;
    const server = await listenControl(socket, async () =>
      new Streamed(async (out) => {
        const chunk = 'x'.repeat(64 * 1024);
        for (let i = 0; i < 200 && !out.signal.aborted; i++) {
          if (!out.send(chunk)) {
            full++;
            await out.drained();
          }
        }
        return null;
      }),
    );
    try {
      // A raw reader that reads nothing for a while: the supervisor must wait, not buffer 12 MB.
      const client = connect(socket);
      client.write('{"v":2,"op":"down"}\n');
      client.pause();
      await waitFor(() => full > 0, { what: 'the producer told the socket is full' });
      const heldAt = full;
      let bytes = 0;
      const done = new Promise<void>((resolve) => client.on('end', () => resolve()));
      client.on('data', (d: Buffer) => (bytes += d.length));
      client.resume();
      await done;
      expect(bytes).toBeGreaterThan(200 * 64 * 1024);
      expect(heldAt).toBeGreaterThan(0);
    } finally {
      server.close();
    }
  });
});
