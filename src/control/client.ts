// The CLI's end of the control socket. Nothing answering means no fleet (exit 3); a socket
// that is not surely this user's gets nothing (trusted-socket.ts).
import { connect } from 'node:net';
import { FleetError, NoFleetError } from '../errors.js';
import type { ReplyTo, Request } from './protocol.js';
import { replyChecks } from './replies.js';
import type { Check } from './shape.js';
import { PROTOCOL_VERSION, readReply } from './reply.js';
import { assertTrustedSocket } from './trusted-socket.js';

const NO_FLEET_CODES = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR']);

export async function callSupervisor<R extends Request>(socketPath: string, request: R): Promise<ReplyTo<R>> {
  assertTrustedSocket(socketPath);
  const text = await exchange(socketPath, `${JSON.stringify({ v: PROTOCOL_VERSION, ...request })}\n`);
  let reply;
  try {
    reply = readReply(JSON.parse(text));
  } catch {
    reply = null;
  }
  if (reply === null) throw new FleetError(`the supervisor sent an unreadable reply: ${text.slice(0, 200)}`);
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

function exchange(socketPath: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(line));
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('end', () => (reply === '' ? reject(new FleetError('the supervisor closed the connection without a reply')) : resolve(reply)));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reject(NO_FLEET_CODES.has(error.code ?? '') ? new NoFleetError() : new FleetError(`control socket ${socketPath}: ${error.message}`));
    });
  });
}
