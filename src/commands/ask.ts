// Talking to the running fleet from a command: the socket of this runtime dir, or one named
// explicitly (tmux bindings pass the socket of the pane's own fleet).
import { callSupervisor, type CallOptions } from '../control/client.js';
import type { ReplyTo, Request } from '../control/protocol.js';
import type { Deps } from '../deps.js';
import { fleetRuntime } from '../paths.js';

export function ask<R extends Request>(deps: Pick<Deps, 'env'>, request: R, socket?: string, opts?: CallOptions): Promise<ReplyTo<R>> {
  return callSupervisor(socket ?? fleetRuntime(deps.env).socket, request, opts);
}
