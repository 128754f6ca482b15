// Talking to the running fleet from a command: the socket of this runtime dir, or one named
// explicitly (tmux bindings pass the socket of the pane's own fleet).
import { callSupervisor } from '../control/client.js';
import type { Request } from '../control/protocol.js';
import type { Deps } from '../deps.js';
import { fleetRuntime } from '../fleet/runtime-files.js';

export function ask(deps: Deps, request: Request, socket?: string): Promise<unknown> {
  return callSupervisor(socket ?? fleetRuntime(deps.env).socket, request);
}
