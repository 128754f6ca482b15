// Which host's task `next` goes to once this machine's fleet has none left in its order: the
// hosts in the order configured, each host's tasks in the order of this machine's own (a
// permission first, then the longest waiting). Pure.
import type { LsRecord } from '../control/protocol.js';
import { needsYouOrder, type Attending } from '../harness/attention.js';
import { targetProblem, type RemoteTarget } from './remote-tmux.js';

export interface HostTasks {
  host: string;
  tasks: readonly LsRecord[];
}

export interface RemoteAttending extends Attending {
  target: RemoteTarget;
}

/** A host's record as ordering and going there need it; null when its ids cannot be used. */
export function remoteAttending(host: string, r: LsRecord): RemoteAttending | null {
  const target: RemoteTarget = { host, id: r.id, windowId: r.windowId, paneId: r.paneId, tmuxSocket: r.tmuxSocket ?? null };
  if (targetProblem(target) !== null) return null;
  const since = r.attentionSince === null ? null : Date.parse(r.attentionSince);
  return { id: r.id, attention: r.state === 'exited' ? null : r.attention, since: Number.isFinite(since) ? since : null, target };
}

/** Every host's tasks that need the user, in the order to visit them. */
export function remoteOrder(hosts: readonly HostTasks[]): RemoteAttending[] {
  return hosts.flatMap((h) => needsYouOrder(h.tasks.map((r) => remoteAttending(h.host, r)).filter((t) => t !== null)));
}

/**
 * The host's task to go to after `after` (null: before the first), or null when none comes
 * after it: the caller then goes round to this machine's tasks.
 */
export function nextOnHosts(hosts: readonly HostTasks[], after: { host: string; id: number } | null): RemoteTarget | null {
  const order = remoteOrder(hosts);
  const at = after === null ? -1 : order.findIndex((t) => t.target.host === after.host && t.id === after.id);
  return order[at + 1]?.target ?? null;
}
