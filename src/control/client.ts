// The CLI's end of the control socket. Nothing answering means no fleet (exit 3); a socket
// that is not surely this user's gets nothing (trusted-socket.ts). A supervisor that is
// stopped or hung must not hang the command (nor a TAB, a key binding, a script): a stopped
// one is seen before anything is sent, and a call gives up once the supervisor has been
// silent for its deadline. A long request is not cut off: the supervisor sends a keepalive
// byte every KEEPALIVE_MS while it works on it (server.ts), so silence means it is not
// working, whatever the request. A supervisor stopped after the first look (the signal lands
// late on a loaded machine, or Ctrl-Z mid-request) is looked for again while the call waits,
// so it too is named within a keepalive or so rather than after the whole silence.
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { FleetError, NoFleetError } from '../errors.js';
import { runtimeFiles } from '../paths.js';
import { lockedSupervisor } from './lock-record.js';
import type { ReplyTo, Request } from './protocol.js';
import { replyChecks } from './replies.js';
import type { Check } from './shape.js';
import { KEEPALIVE_MS, PROTOCOL_VERSION, readReply } from './reply.js';
import { takeEvents } from './stream.js';
import { assertTrustedSocket } from './trusted-socket.js';

const NO_FLEET_CODES = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR']);

/** How long a supervisor may be silent before a call gives up: five keepalives missed. */
export const SILENCE_MS = 5 * KEEPALIVE_MS;
/**
 * `down` waits longer: every version accepts it, and a supervisor of a fleetcom from before
 * the keepalive (protocol 1) sends nothing while it stops hundreds of tasks. A stopped one is
 * still refused at once.
 */
const DOWN_SILENCE_MS = 60_000;

export interface CallOptions {
  /** Give up after this long without a byte from the supervisor (default SILENCE_MS). */
  silenceMs?: number;
}

export async function callSupervisor<R extends Request>(socketPath: string, request: R, opts: CallOptions = {}): Promise<ReplyTo<R>> {
  return (await call(socketPath, request, opts, null)) as ReplyTo<R>;
}

export interface StreamOptions extends CallOptions {
  /**
   * Each event of the stream, as sent (input: the caller checks its shape). Returning 'stop'
   * ends the stream from this end: the connection is closed and the call resolves with null.
   */
  onEvent(event: unknown): void | 'stop';
}

/** A request whose reply is a stream (control/stream.ts): its events, then its result. */
export async function streamSupervisor<R extends Request>(socketPath: string, request: R, opts: StreamOptions): Promise<ReplyTo<R> | null> {
  return call(socketPath, request, opts, opts.onEvent);
}

type OnEvent = StreamOptions['onEvent'];

async function call<R extends Request>(socketPath: string, request: R, opts: CallOptions, onEvent: OnEvent | null): Promise<ReplyTo<R> | null> {
  assertTrustedSocket(socketPath);
  const lock = runtimeFiles(dirname(socketPath)).lock;
  const before = lockedSupervisor(lock);
  if (before?.stopped) throw stoppedError(before.pid);
  const silenceMs = opts.silenceMs ?? (request.op === 'down' ? DOWN_SILENCE_MS : SILENCE_MS);
  const stoppedPid = () => {
    const now = lockedSupervisor(lock);
    return now?.stopped ? now.pid : null;
  };
  const text = await exchange(socketPath, `${JSON.stringify({ v: PROTOCOL_VERSION, ...request })}\n`, silenceMs, stoppedPid, onEvent).catch((error: unknown) => {
    if (error instanceof StoppedWhileWaiting) throw stoppedError(error.pid);
    if (error !== SILENT) throw error;
    const now = lockedSupervisor(lock);
    throw now?.stopped ? stoppedError(now.pid) : silentError(now?.pid ?? null, socketPath, silenceMs);
  });
  if (text === null) return null;
  let reply;
  try {
    reply = readReply(JSON.parse(text));
  } catch {
    reply = null;
  }
  if (reply === null) throw new FleetError(`the supervisor sent an unreadable reply: ${text.trim().slice(0, 200)}`);
  if (!reply.ok) throw new FleetError(reply.error, reply.exitCode);
  try {
    return checkOf(request)(reply.result);
  } catch (error) {
    throw new FleetError(`the supervisor sent an unreadable ${request.op} reply: ${(error as Error).message}`);
  }
}

/** The check of the request's op. TypeScript cannot tie a lookup by `op` to R; the table's type does. */
function checkOf<R extends Request>(request: R): Check<ReplyTo<R>> {
  return replyChecks[request.op] as Check<ReplyTo<R>>;
}

function stoppedError(pid: number): FleetError {
  return new FleetError(`the supervisor (pid ${pid}) is stopped and cannot answer; continue it with: kill -CONT ${pid}`);
}

function silentError(pid: number | null, socketPath: string, silenceMs: number): FleetError {
  const who = pid === null ? 'the supervisor (no lock names it)' : `the supervisor (pid ${pid})`;
  const stop = pid === null ? 'stop it' : `stop it (kill ${pid})`;
  return new FleetError(
    `${who} did not answer within ${silenceMs / 1000} s on ${socketPath}; ` +
      `it may be hung: look at its tmux pane, or ${stop} and run fleetcom up again, which adopts its tasks`,
  );
}

/** Rejected with this when the supervisor stays silent for the deadline. */
const SILENT = Symbol('silent');

/** Rejected with this when the supervisor is seen stopped while the call waits. */
class StoppedWhileWaiting {
  constructor(readonly pid: number) {}
}

/** How often a waiting call looks whether the supervisor has been stopped meanwhile. */
const STOPPED_LOOK_MS = KEEPALIVE_MS / 2;

/**
 * The reply's text: one JSON document, after any keepalive whitespace and, for a stream, after
 * its event lines (each handed to `onEvent` as it arrives). null: `onEvent` stopped the stream.
 */
function exchange(socketPath: string, line: string, silenceMs: number, stoppedPid: () => number | null, onEvent: OnEvent | null): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let reply = '';
    let timer: NodeJS.Timeout | undefined;
    let heard = 0;
    // Most calls end before the first look; a look is one read of the lock and one of /proc.
    const look = setInterval(() => {
      const pid = stoppedPid();
      if (pid === null) return;
      end();
      socket.destroy();
      reject(new StoppedWhileWaiting(pid));
    }, STOPPED_LOOK_MS);
    const end = () => {
      clearTimeout(timer);
      clearInterval(look);
      heard++;
    };
    // The deadline is judged after one more turn of the event loop: a client that got no CPU
    // for the whole deadline (a loaded machine) runs its due timers before it reads what the
    // socket holds, and would call an answer that has arrived a silence.
    const quiet = () => {
      clearTimeout(timer);
      const mark = ++heard;
      timer = setTimeout(() => setImmediate(() => {
        if (mark !== heard) return;
        clearInterval(look);
        socket.destroy();
        reject(SILENT);
      }), silenceMs);
    };
    quiet();
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(line));
    socket.on('data', (chunk: string) => {
      reply += chunk;
      quiet();
      if (onEvent === null) return;
      let taken;
      try {
        taken = takeEvents(reply);
      } catch {
        end();
        socket.destroy();
        reject(new FleetError(`the supervisor sent an unreadable event: ${reply.trim().slice(0, 200)}`));
        return;
      }
      reply = taken.rest;
      for (const event of taken.events) {
        let said;
        try {
          said = onEvent(event);
        } catch (error) {
          end();
          socket.destroy();
          reject(error);
          return;
        }
        if (said !== 'stop') continue;
        end();
        socket.destroy();
        resolve(null);
        return;
      }
    });
    socket.on('end', () => {
      end();
      if (reply.trim() === '') reject(new FleetError('the supervisor closed the connection without a reply'));
      else resolve(reply);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      end();
      reject(NO_FLEET_CODES.has(error.code ?? '') ? new NoFleetError() : new FleetError(`control socket ${socketPath}: ${error.message}`));
    });
  });
}
