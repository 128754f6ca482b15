// A pane through the supervisor's own tmux connection: the control socket's `watch` streams
// the pane's screen and then its output (base64 events before the one reply,
// control/stream.ts), `input` types bytes into it. The stream's socket is read only as fast as
// the viewer takes it (paused while the viewer's buffer is full), so a flooding pane is held
// back at the supervisor, which shows the viewer a fresh screen once it has caught up.
// A supervisor that has no `watch` (an older fleetcom still running, a tmux without the
// streams) is told by its first answer; from then on the polling transport stands in.
import { connect } from 'node:net';
import { readReply, PROTOCOL_VERSION } from '../control/reply.js';
import { takeEvents } from '../control/stream.js';
import { assertTrustedSocket } from '../control/trusted-socket.js';
import type { PaneTransport, PaneViewer } from './pane-transport.js';

/** The most bytes one `input` request carries (the supervisor takes 64 KiB). */
const INPUT_CHUNK = 48 * 1024;

/** The supervisor's answer means it cannot stream panes at all (not: this pane failed). */
export function cannotWatch(error: string): boolean {
  return /^bad (watch|input) request: (op|\(request\))\b/.test(error) || /\bstreams? need|control connection|not streamed/i.test(error);
}

interface WatchEvent {
  kind?: unknown;
  width?: unknown;
  height?: unknown;
  data?: unknown;
}

export function supervisorTransport(socketPath: () => string, fallback: PaneTransport, log: (line: string) => void): PaneTransport {
  let polling = false;
  const fallBack = (why: string) => {
    if (!polling) log(`terminals: the supervisor streams no pane (${why}); polling tmux instead`);
    polling = true;
  };

  const watch = (pane: string, viewer: PaneViewer, signal: AbortSignal): void => {
    if (polling) return fallback.watch(pane, viewer, signal);
    const path = socketPath();
    try {
      assertTrustedSocket(path);
    } catch (error) {
      return viewer.end((error as Error).message);
    }
    const socket = connect(path);
    let text = '';
    let events = 0;
    let size = '';
    signal.addEventListener('abort', () => socket.destroy(), { once: true });
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ v: PROTOCOL_VERSION, op: 'watch', task: pane })}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
      let taken;
      try {
        taken = takeEvents(text);
      } catch {
        socket.destroy();
        return viewer.end('the supervisor sent an unreadable event');
      }
      text = taken.rest;
      for (const raw of taken.events) {
        const event = raw as WatchEvent;
        if (typeof event.data !== 'string') continue;
        events++;
        if (event.kind === 'screen' && typeof event.width === 'number' && typeof event.height === 'number' && `${event.width}x${event.height}` !== size) {
          size = `${event.width}x${event.height}`;
          viewer.size({ cols: event.width, rows: event.height });
        }
        if (!viewer.bytes(Buffer.from(event.data, 'base64'))) {
          // Read no more until the viewer has taken what it has: the supervisor's socket fills
          // and it holds the pane back.
          socket.pause();
          void viewer.drained().then(() => socket.resume());
        }
      }
    });
    socket.on('end', () => {
      if (signal.aborted) return;
      let reply;
      try {
        reply = readReply(JSON.parse(text.trim()));
      } catch {
        reply = null;
      }
      if (reply !== null && !reply.ok && events === 0 && cannotWatch(reply.error)) {
        fallBack(reply.error);
        return fallback.watch(pane, viewer, signal);
      }
      const reason = reply === null ? 'the supervisor closed the stream' : reply.ok ? String((reply.result as { reason?: unknown } | null)?.reason ?? 'the stream ended') : reply.error;
      viewer.end(reason);
    });
    socket.on('error', (error) => {
      if (!signal.aborted) viewer.end(`the control socket: ${error.message}`);
    });
  };

  const input = async (pane: string, data: Buffer): Promise<void> => {
    if (polling) return fallback.input(pane, data);
    for (let at = 0; at < data.length; at += INPUT_CHUNK) {
      const chunk = data.subarray(at, at + INPUT_CHUNK);
      const reply = await exchange(socketPath(), { op: 'input', task: pane, data: chunk.toString('base64') });
      if (reply.ok) continue;
      if (at === 0 && cannotWatch(reply.error)) {
        fallBack(reply.error);
        return fallback.input(pane, data);
      }
      throw new Error(reply.error);
    }
  };

  return {
    get kind() {
      return polling ? fallback.kind : 'stream';
    },
    watch,
    input,
    close: () => fallback.close(),
  };
}

/** One request and its reply over the control socket. */
function exchange(path: string, request: Record<string, unknown>): Promise<{ ok: true } | { ok: false; error: string }> {
  assertTrustedSocket(path);
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('the supervisor did not answer within 10 s'));
    }, 10_000);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ v: PROTOCOL_VERSION, ...request })}\n`));
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => {
      clearTimeout(timer);
      let reply;
      try {
        reply = readReply(JSON.parse(text.trim()));
      } catch {
        reply = null;
      }
      if (reply === null) reject(new Error(`the supervisor sent an unreadable reply: ${text.trim().slice(0, 200)}`));
      else resolve(reply.ok ? { ok: true } : { ok: false, error: reply.error });
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
