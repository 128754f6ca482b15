// The page's fleet: this machine's tasks and the hosts', in the dashboard's order (those that
// need you first — a permission, then the longest waiting —, then running, idle, completed;
// each host after, its own first), each with what the page shows of it. Pure.
import type { LsRecord } from '../control/replies.js';
import { hostRow, HostRowIds, hostStatuses } from '../dashboard/host-rows.js';
import { sections, type Row } from '../dashboard/model.js';
import { glyphFor } from '../fleet/supervisor/glyphs.js';
import { PERMISSION_KEYS, type PermissionKeys } from '../harness/permission-keys.js';
import { plainText } from '../harness/scrape.js';
import { quoteShell } from '../harness/quote.js';
import type { HostTasks } from './fleet-port.js';

export interface TaskView {
  /** The task's id on its own machine. */
  id: number;
  /** null: this machine's. */
  host: string | null;
  label: string;
  glyph: string;
  state: LsRecord['state'];
  exitStatus: number | null;
  attention: LsRecord['attention'];
  /** What the row says: the agent's words while it waits, else where it runs. */
  text: string;
  /** ms since epoch the row's age counts from. */
  since: number | null;
  cwd: string;
  command: string | null;
  harness: LsRecord['harness'];
  conversationId: string | null;
  /** The agent's turn (0 before its first), from a supervisor that counts them; else null. */
  turn: number | null;
  /** The page can open its terminal (this machine's, in a live pane). */
  terminal: boolean;
  /** How to reach a host's task from a terminal, when the page cannot show it. */
  reach: string | null;
  keys: PermissionKeys | null;
}

export interface SectionView {
  title: string;
  host: string | null;
  /** A host's state when it has no tasks to show (asking…, unreachable: …, no fleet running). */
  note: string | null;
  tasks: TaskView[];
}

export interface FleetView {
  /** false: no fleet runs here. */
  fleet: boolean;
  sections: SectionView[];
}

const time = (iso: string | null | undefined): number | null => {
  const ms = iso == null ? NaN : Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
};

function waitText(r: LsRecord, label: string): string | null {
  if (r.state === 'exited' || (r.attention !== 'waiting' && r.attention !== 'permission')) return null;
  return r.attentionMessage ?? (r.attention === 'permission' ? `${label} needs your permission` : `${label} is waiting for you`);
}

function taskView(r: LsRecord, host: string | null): TaskView {
  const words = (s: string) => (host === null ? s : plainText(s));
  const label = words(r.name ?? r.command ?? `task ${r.id}`);
  const attention = r.state === 'exited' ? null : r.attention;
  const waiting = waitText(r, label);
  return {
    id: r.id,
    host,
    label,
    glyph: glyphFor(r.state, r.exitStatus, attention),
    state: r.state,
    exitStatus: r.exitStatus,
    attention,
    text: waiting === null ? words(r.cwd) : words(waiting),
    since: (waiting !== null ? time(r.attentionSince) : null) ?? time(r.lastOutputAt),
    cwd: words(r.cwd),
    command: r.command === null ? null : words(r.command),
    harness: r.harness,
    conversationId: r.conversationId,
    turn: turnOf(r),
    terminal: host === null,
    reach: host === null ? null : reachLine(host, r),
    keys: r.harness === null ? null : PERMISSION_KEYS[r.harness],
  };
}

/** The record's turn count, where the supervisor sends one. */
function turnOf(r: LsRecord): number | null {
  const turn = (r as { turn?: unknown }).turn;
  return typeof turn === 'number' && Number.isSafeInteger(turn) ? turn : null;
}

/** A word as a person would type it: quoted only when the shell would read it otherwise. */
const word = (w: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : quoteShell(w));

/** How to reach a host's task from a terminal: the host's tmux attached to its window, over ssh. */
function reachLine(host: string, r: LsRecord): string {
  const tmux = ['tmux', ...(r.tmuxSocket ? ['-S', r.tmuxSocket] : []), 'attach-session', '-t', r.windowId].map(word).join(' ');
  return `ssh -t ${word(host)} ${quoteShell(tmux)}`;
}

function localRow(r: LsRecord, now: number): Row {
  const attention = r.state === 'exited' ? null : r.attention;
  return {
    id: r.id, run: r.run, state: r.state, exitStatus: r.exitStatus, tagged: r.tagged, label: r.name ?? r.command ?? '', name: r.name,
    command: r.command, group: r.group, cwd: r.cwd, line: '', ageMs: 0, windowId: r.windowId, paneId: r.paneId,
    attention, since: attention === null ? null : time(r.attentionSince) ?? now,
  };
}

/** The view of `local` (null: no fleet) and the hosts' answers, in the dashboard's order. */
export function fleetView(local: readonly LsRecord[] | null, hosts: readonly HostTasks[], now: number): FleetView {
  const ids = new HostRowIds();
  const byKey = new Map<number, TaskView>();
  const rows: Row[] = [];
  for (const r of local ?? []) {
    rows.push(localRow(r, now));
    byKey.set(r.id, taskView(r, null));
  }
  for (const h of hosts) {
    for (const r of h.tasks ?? []) {
      const row = hostRow(h.host, r, now, ids);
      rows.push(row);
      byKey.set(row.id, taskView(r, h.host));
    }
  }
  const shown: SectionView[] = sections(rows, 'state', '').map((s) => ({
    title: s.title, host: s.host ?? null, note: null, tasks: s.rows.map((row) => byKey.get(row.id)!),
  }));
  const answers = new Map(hosts.map((h) => [h.host, h]));
  for (const status of hostStatuses(hosts.map((h) => h.host), answers)) {
    if (status.note !== null) shown.push({ title: status.host, host: status.host, note: status.note, tasks: [] });
  }
  return { fleet: local !== null, sections: shown };
}
