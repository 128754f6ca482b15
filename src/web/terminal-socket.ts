// `/api/tasks/:id/terminal`: a task's pane over a WebSocket. Binary frames are the terminal's
// bytes both ways; text frames are JSON control messages:
//   server → page  {"type":"hello", task, cols, rows, readOnly, transport}, {"type":"size", cols, rows},
//                  {"type":"pong", n}, {"type":"error", error}, {"type":"end", reason}
//   page → server  {"type":"ping", n} (the page's own check after sleep), {"type":"visible", visible}
// The pane is shown at its own size and never resized. Every socket is pinged; one that has
// not answered the previous ping is closed (a phone that slept leaves a socket that looks open).
import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { LsRecord } from '../control/replies.js';
import type { ApiContext } from './context.js';
import { Bucket } from './rate-limit.js';
import type { PaneViewer } from './pane-transport.js';
import type { Viewer } from './viewers.js';

/** A socket's buffer past this skips frames (a poll) or waits (a stream). */
const HIGH_WATER = 1024 * 1024;
/** Terminal input a socket may send: bytes a second, and a burst (a paste). */
const INPUT_RATE = 64 * 1024;
const INPUT_BURST = 256 * 1024;

/** The task a terminal URL names, as `ls` has it now; null when there is none or no fleet. */
export async function terminalTask(url: string, ctx: ApiContext): Promise<LsRecord | null> {
  const m = /^\/api\/tasks\/(\d{1,9})\/terminal$/.exec(url.split('?')[0]!);
  if (!m) return null;
  const id = Number(m[1]);
  return (await ctx.fleet.tasks()).find((t) => t.id === id) ?? null;
}

export function acceptTerminal(ws: WebSocket, task: LsRecord, ctx: ApiContext, pingMs: number, log: (line: string) => void): void {
  const stop = new AbortController();
  const input = new Bucket(INPUT_RATE, INPUT_BURST, ctx.now());
  let answered = true;
  const send = (doc: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(doc));
  };
  const viewer: Viewer = { task: task.id, visible: true, close: (code, reason) => ws.close(code, reason) };
  ctx.viewers.all.add(viewer);

  const ping = setInterval(() => {
    if (!answered) {
      log(`terminal of task ${task.id}: no answer to a ping within ${pingMs} ms; closed`);
      ws.terminate();
      return;
    }
    answered = false;
    ws.ping();
  }, pingMs);
  ws.on('pong', () => {
    answered = true;
  });

  const end = () => {
    clearInterval(ping);
    stop.abort();
    ctx.viewers.all.delete(viewer);
  };
  ws.on('close', end);
  ws.on('error', () => ws.terminate());

  const pane: PaneViewer = {
    size: ({ cols, rows }) => send({ type: 'size', cols, rows }),
    bytes: (data) => {
      if (ws.readyState !== ws.OPEN) return true;
      if (ws.bufferedAmount > HIGH_WATER) return false;
      ws.send(data);
      return true;
    },
    drained: () => new Promise((resolve) => {
      const look = setInterval(() => {
        if (ws.readyState !== ws.OPEN || ws.bufferedAmount <= HIGH_WATER / 2) {
          clearInterval(look);
          resolve();
        }
      }, 20);
    }),
    end: (reason) => {
      send({ type: 'end', reason });
      ws.close(1000, 'the pane ended');
    },
  };

  send({
    type: 'hello',
    task: { id: task.id, label: task.name ?? task.command ?? `task ${task.id}`, harness: task.harness, state: task.state, attention: task.attention },
    readOnly: ctx.readOnly,
    transport: ctx.transport.kind,
  });
  ctx.transport.watch(task.paneId, pane, stop.signal);

  ws.on('message', (data, binary) => {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (!binary) return control(bytes.toString('utf8'));
    if (ctx.readOnly) return send({ type: 'error', error: 'read-only: this server takes no input (fleetcom web --read-only)' });
    if (!input.take(bytes.length, ctx.now())) return send({ type: 'error', error: 'input over the rate limit: slow down' });
    typed(bytes);
  });

  // Keys go in one after another, in order: what arrives while one delivery is under way waits
  // and goes in with the next (each key its own tmux call, run side by side, came in shuffled).
  let queued: Buffer[] = [];
  let delivering = false;
  function typed(bytes: Buffer): void {
    queued.push(bytes);
    if (delivering) return;
    delivering = true;
    void (async () => {
      while (queued.length > 0) {
        const batch = Buffer.concat(queued);
        queued = [];
        await ctx.transport.input(task.paneId, batch).catch((error: unknown) => send({ type: 'error', error: `input not delivered: ${(error as Error).message.split('\n')[0]}` }));
      }
      delivering = false;
    })();
  }

  function control(text: string): void {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return send({ type: 'error', error: 'a text frame must be JSON' });
    }
    const msg = doc as { type?: unknown; n?: unknown; visible?: unknown };
    if (msg.type === 'ping') return send({ type: 'pong', n: typeof msg.n === 'number' ? msg.n : null });
    if (msg.type === 'visible' && typeof msg.visible === 'boolean') {
      viewer.visible = msg.visible;
      return;
    }
    send({ type: 'error', error: 'unknown control message' });
  }
}

export type { IncomingMessage };
