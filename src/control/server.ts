// The supervisor's end of the control socket (0600, inside the 0700 runtime dir).
import { createServer, type Server, type Socket } from 'node:net';
import { errorMessage, FleetError } from '../errors.js';
import { removeFile, restrictToOwner } from '../fs-safety.js';
import { failure, isReply, KEEPALIVE_MS, parseRequest, type Reply, type Request } from './protocol.js';
import { eventLine, Streamed, type StreamOut } from './stream.js';

/** A request's result, or a `Streamed` whose events go out before its result. */
export type Handler = (request: Request) => Promise<unknown>;

const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

export async function listenControl(socketPath: string, handle: Handler): Promise<Server> {
  removeFile(socketPath);
  const server = createServer((socket) => serve(socket, handle));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  restrictToOwner(socketPath);
  return server;
}

function serve(socket: Socket, handle: Handler): void {
  let buffer = '';
  let answered = false;
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    if (answered) return;
    buffer += chunk;
    const newline = buffer.indexOf('\n');
    if (newline < 0 && buffer.length <= MAX_REQUEST_BYTES) return;
    answered = true;
    const line = newline < 0 ? buffer : buffer.slice(0, newline);
    // A space a second while the request is worked on: the client's deadline is on silence, so
    // a load of thousands of tasks is never cut off, while a stopped or hung supervisor (whose
    // timers do not run) is. The reply stays one JSON document: whitespace may lead it.
    const keepalive = setInterval(() => {
      if (!socket.destroyed) socket.write(' ');
    }, KEEPALIVE_MS);
    void answer(line, handle, socket).then((reply) => {
      clearInterval(keepalive);
      if (!socket.destroyed) socket.end(`${JSON.stringify(reply)}\n`);
    });
  });
}

async function answer(line: string, handle: Handler, socket: Socket): Promise<Reply> {
  const request = line.length > MAX_REQUEST_BYTES ? failure('request too large') : parseRequest(line);
  if (isReply(request)) return request;
  try {
    const result = await handle(request);
    if (result instanceof Streamed) return { ok: true, result: (await result.run(streamOut(socket))) ?? null };
    return { ok: true, result: result ?? null };
  } catch (error) {
    return failure(errorMessage(error), error instanceof FleetError ? error.exitCode : 1);
  }
}

function streamOut(socket: Socket): StreamOut {
  const gone = new AbortController();
  const leave = () => gone.abort();
  socket.once('close', leave);
  if (socket.destroyed) leave();
  return {
    send: (event) => (socket.destroyed ? false : socket.write(eventLine(event))),
    drained: () =>
      new Promise((resolve) => {
        if (socket.destroyed || !socket.writableNeedDrain) return resolve();
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.once('drain', done);
        socket.once('close', done);
      }),
    signal: gone.signal,
  };
}
