// The hosts' tasks in the dashboard: what `up` hands it to reach them (HostsFeed, made in
// commands/hosts/dashboard-hosts.ts from the same fan-out as `ls --all-hosts`), and the pure part:
// each host's answer → its rows and the line its section is titled with. A host's rows get
// ids of their own (negative, stable while the dashboard runs) so that selection and the keys
// treat them like this machine's; the host's own id stays in `remote`.
import type { LsRecord } from '../control/protocol.js';
import type { RemoteTarget } from '../remote/remote-tmux.js';
import type { Row } from './model.js';

/** What one round of asking a host gave: its tasks, none (no fleet there), or why it did not answer. */
export interface HostAnswer {
  host: string;
  tasks: LsRecord[] | null;
  failure: string | null;
}

export interface HostsFeed {
  /** The hosts, in the order their sections are shown. */
  hosts: readonly string[];
  /** Every host's answer, each within the deadline; never rejects. */
  poll(): Promise<HostAnswer[]>;
  /** Shows the task's window in this fleet's tmux (the host's attach window); the status line's text. */
  show(target: RemoteTarget): Promise<string>;
  /** The task's screen, captured there. */
  capture(target: RemoteTarget): Promise<string>;
  /** Reruns the task on its host (its fleetcom there); the status line's text. */
  rerun(target: RemoteTarget): Promise<string>;
}

/** A host's line in the dashboard: asked but not answered yet, answered, or not reachable. */
export interface HostStatus {
  host: string;
  /** Shown after the host's name instead of its count; null once it answered with a fleet. */
  note: string | null;
}

export const ASKING = 'asking…';

/** Pause between the end of one round of asking the hosts and the next. */
export const HOST_POLL_MS = 2_000;

/** The row ids of hosts' tasks: one per (host, task id), kept while the dashboard runs. */
export class HostRowIds {
  private readonly ids = new Map<string, number>();

  of(host: string, id: number): number {
    const key = `${host}\n${id}`;
    let known = this.ids.get(key);
    if (known === undefined) {
      known = -(this.ids.size + 1);
      this.ids.set(key, known);
    }
    return known;
  }
}

const time = (iso: string | null): number | null => {
  const ms = iso === null ? NaN : Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
};

/** Pure: a host's task record → its row (its words are the host's: the view shows them without control characters). */
export function hostRow(host: string, r: LsRecord, now: number, ids: HostRowIds): Row {
  const label = r.name ?? r.command ?? `task ${r.id}`;
  const attention = r.state === 'exited' ? null : r.attention;
  const since = attention === null ? null : time(r.attentionSince);
  const needsYou = attention === 'waiting' || attention === 'permission';
  const at = (needsYou ? since : null) ?? time(r.lastOutputAt) ?? now;
  return {
    id: ids.of(host, r.id),
    run: r.run,
    state: r.state,
    exitStatus: r.exitStatus,
    tagged: r.tagged,
    label,
    name: r.name,
    command: r.command,
    group: r.group,
    cwd: r.cwd,
    line: needsYou ? (attention === 'permission' ? `${label} needs your permission` : `${label} is waiting for you`) : r.cwd,
    ageMs: Math.max(0, now - at),
    windowId: r.windowId,
    paneId: r.paneId,
    attention,
    since,
    remote: { host, id: r.id, windowId: r.windowId, paneId: r.paneId, tmuxSocket: r.tmuxSocket ?? null },
  };
}

/** Pure: the rows of every host that answered, in the hosts' order. */
export function hostRows(hosts: readonly string[], answers: ReadonlyMap<string, HostAnswer>, now: number, ids: HostRowIds): Row[] {
  return hosts.flatMap((host) => (answers.get(host)?.tasks ?? []).map((r) => hostRow(host, r, now, ids)));
}

/** Pure: each host's title note. */
export function hostStatuses(hosts: readonly string[], answers: ReadonlyMap<string, HostAnswer>): HostStatus[] {
  return hosts.map((host) => {
    const a = answers.get(host);
    if (a === undefined) return { host, note: ASKING };
    if (a.failure !== null) return { host, note: `unreachable: ${a.failure}` };
    if (a.tasks === null) return { host, note: 'no fleet running' };
    return { host, note: null };
  });
}
