// What the dashboard shows, as plain data: one Row per task, the grouping of rows into
// sections, the finder's filter, and the UI state the keys change. Pure.
import { attentionText } from '../fleet/attention/notify.js';
import { glyphFor, type TaskState } from '../fleet/supervisor/glyphs.js';
import { labelOf, taskState, type Task } from '../fleet/supervisor/task.js';
import { needsYouOrder, type Attention, type AttentionState } from '../harness/index.js';
import { abbreviateDir } from '../sessions/names.js';
import type { RemoteTarget } from '../remote/remote-tmux.js';
import { UNASSIGNED_GROUP } from '../sessions/recipe.js';

export interface Row {
  id: number;
  run: number;
  state: TaskState;
  exitStatus: number | null;
  tagged: boolean;
  /** Name, else command. */
  label: string;
  name: string | null;
  command: string | null;
  group: string | null;
  cwd: string;
  /** The task's latest non-blank output line ('' when none is known yet). */
  line: string;
  /** ms since the last output (running, idle) or since the exit (exited). */
  ageMs: number;
  windowId: string;
  paneId: string;
  /** From the agent's own signals; null for other commands and finished tasks. */
  attention: Attention | null;
  /** ms since epoch when `attention` began, or null. */
  since: number | null;
  /** A host's task (its own id and window there); absent for this machine's. */
  remote?: RemoteTarget;
  /** It runs in a git worktree fleetcom made (`f` finishes it). */
  worktree?: true;
}

export const NEEDS_YOU = 'Needs you';

export type Grouping = 'state' | 'directory' | 'group';
export const GROUPINGS: readonly Grouping[] = ['state', 'directory', 'group'];

/** A saved session or recovery snapshot offered by `o`. */
export interface LoadChoice {
  label: string;
  file: string;
}

/** A pane running an agent started by hand, offered by `a` (fleetcom adopt). */
export interface AdoptChoice {
  label: string;
  paneId: string;
  /** Why it cannot be adopted, or null. */
  refused: string | null;
}

/** A past conversation offered by `h` (fleetcom history). */
export interface HistoryChoice {
  label: string;
  /** Which conversation (the loop keeps the rows by it). */
  key: string;
  /** The task of this fleet that has it open: Enter goes there instead of resuming. */
  heldByTask: number | null;
  /** What typing filters on, lowercased: agent, title, id, directory. */
  text: string;
}

/** The choices the filter text leaves, in order. */
export function historyShown(choices: readonly HistoryChoice[], text: string): HistoryChoice[] {
  const needle = text.toLowerCase();
  return needle === '' ? [...choices] : choices.filter((c) => c.text.includes(needle));
}

/** `f`: a worktree task's diff stat and finish plan, shown until `y` finishes it or another key does not. */
export interface FinishShown {
  taskId: number;
  lines: string[];
  /** The plan refused nothing: `y` may finish it. */
  ok: boolean;
  /** The branch's and the target's tips the plan was made with. */
  expect: { tip: string | null; intoTip: string | null };
}

export type Mode =
  | { kind: 'list' }
  | { kind: 'prompt'; purpose: 'new' | 'rename' | 'group' | 'save'; text: string; taskId: number | null }
  | { kind: 'find'; text: string; restore: { selected: number | null; index: number } }
  | { kind: 'confirm-quit' }
  | { kind: 'help' }
  | { kind: 'load'; choices: LoadChoice[]; index: number }
  | { kind: 'adopt'; choices: AdoptChoice[]; index: number }
  | { kind: 'history'; choices: HistoryChoice[]; text: string; index: number; where: string }
  | ({ kind: 'finish' } & FinishShown);

export interface Ui {
  /** The selected task's id, and its place in the list when it was selected. */
  selected: number | null;
  index: number;
  grouping: Grouping;
  mode: Mode;
  /** The result of the last action, or the latest log line. */
  status: string;
  /** First body line shown (kept by the loop so scrolling is stable). */
  scroll: number;
}

export const initialUi: Ui = { selected: null, index: 0, grouping: 'state', mode: { kind: 'list' }, status: '', scroll: 0 };

export interface Section {
  title: string;
  rows: Row[];
  /** The host whose tasks these are (a host's section); absent for this machine's. */
  host?: string;
}

/**
 * Pure: a task, what the loop knows of its screen and its attention → its row. A task that
 * needs the user shows why (claude's own words when it sent some) instead of its last line.
 */
export function rowOf(task: Task, now: number, line: string, attention: AttentionState, idleMs?: number, branch: string | null = null): Row {
  // A worktree task's branch and its state (`⎇ feat-x ↑2 +10 −3 *`) open its line.
  if (branch !== null) line = line === '' ? `⎇ ${branch}` : `⎇ ${branch} · ${line}`;
  const state = taskState(task, now, idleMs);
  const needsYou = state !== 'exited' && (attention.attention === 'waiting' || attention.attention === 'permission');
  return {
    id: task.id,
    run: task.run,
    state,
    exitStatus: task.exitStatus,
    tagged: task.tagged,
    label: labelOf(task),
    name: task.name,
    command: task.command,
    group: task.group,
    cwd: task.cwd,
    line: needsYou ? attentionText({ task, state: attention }) : task.parkedJob?.alive ? `⇢ parked as job ${task.parkedJob.id} (rerun attaches) · ${line}` : line,
    ageMs: Math.max(0, now - (needsYou && attention.since !== null ? attention.since
      : state === 'exited' && task.endedAt !== null ? task.endedAt : task.lastOutputAt)),
    windowId: task.windowId,
    paneId: task.paneId,
    attention: state === 'exited' ? null : attention.attention,
    since: state === 'exited' ? null : attention.since,
    ...(task.worktree ? { worktree: true as const } : {}),
  };
}

/** The latest non-blank line of a pane's screen, never tmux's `Pane is dead` notice. */
export function latestLine(screen: string): string {
  const lines = screen.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] ?? '').trim();
    if (line !== '' && !/^Pane is dead\b/.test(line)) return line;
  }
  return '';
}

export function glyphOf(row: Pick<Row, 'state' | 'exitStatus' | 'attention'>): string {
  return glyphFor(row.state, row.exitStatus, row.attention);
}

export function matches(row: Row, text: string): boolean {
  const needle = text.toLowerCase();
  return [row.name, row.command, row.group].some((v) => v !== null && v.toLowerCase().includes(needle));
}

/**
 * Rows into titled sections: first the tasks that need the user (a permission first, then the
 * longest waiting), then the rest (in id order) by the grouping; empty sections are left out.
 * The hosts' tasks follow, one section per host (in the order of their rows), each host's
 * tasks that need the user first, then the others in their id order there.
 */
export function sections(rows: readonly Row[], grouping: Grouping, home: string): Section[] {
  const local = rows.filter((r) => r.remote === undefined);
  const needsYou = needsYouOrder(local);
  const first = needsYou.length > 0 ? [{ title: NEEDS_YOU, rows: needsYou }] : [];
  return [...first, ...groupedSections(local.filter((r) => !needsYou.includes(r)), grouping, home), ...hostSections(rows)];
}

function hostSections(rows: readonly Row[]): Section[] {
  const byHost = new Map<string, Row[]>();
  for (const row of rows) if (row.remote) byHost.set(row.remote.host, [...(byHost.get(row.remote.host) ?? []), row]);
  return [...byHost].map(([host, hostRows]) => {
    const needsYou = needsYouOrder(hostRows);
    const rest = hostRows.filter((r) => !needsYou.includes(r)).sort((a, b) => (a.remote?.id ?? 0) - (b.remote?.id ?? 0));
    return { title: host, host, rows: [...needsYou, ...rest] };
  });
}

/**
 * The row `N` goes to after `current`: this machine's tasks that need the user in their order,
 * then each host's in the order of the hosts (what `fleetcom next` visits), round again.
 */
export function nextRowNeedingYou(rows: readonly Row[], current: Row | null): Row | null {
  const order = sections(rows.filter((r) => r.attention === 'waiting' || r.attention === 'permission'), 'state', '')
    .flatMap((s) => (s.host === undefined && s.title !== NEEDS_YOU ? [] : s.rows));
  const at = current === null ? -1 : order.findIndex((r) => r.id === current.id);
  return order[(at + 1) % Math.max(order.length, 1)] ?? null;
}

function groupedSections(rows: readonly Row[], grouping: Grouping, home: string): Section[] {
  const sorted = [...rows].sort((a, b) => a.id - b.id);
  const by = (key: (r: Row) => string, order?: string[]): Section[] => {
    const map = new Map<string, Row[]>(order?.map((k) => [k, []]));
    for (const row of sorted) {
      const k = key(row);
      const section = map.get(k);
      if (section) section.push(row);
      else map.set(k, [row]);
    }
    return [...map].filter(([, rs]) => rs.length > 0).map(([title, rs]) => ({ title, rows: rs }));
  };
  if (grouping === 'state') {
    const stateTitle = (r: Row) => (r.tagged ? 'In use' : r.state === 'running' ? 'Running' : r.state === 'idle' ? 'Idle' : 'Completed');
    return by(stateTitle, ['In use', 'Running', 'Idle', 'Completed']);
  }
  if (grouping === 'directory') return by((r) => abbreviateDir(r.cwd, home));
  const groups = by((r) => r.group ?? UNASSIGNED_GROUP);
  return [...groups.filter((s) => s.title !== UNASSIGNED_GROUP), ...groups.filter((s) => s.title === UNASSIGNED_GROUP)];
}

/** The sections the list shows now: filtered while the finder is open. */
export function shownSections(rows: readonly Row[], ui: Ui, home: string): Section[] {
  const text = ui.mode.kind === 'find' ? ui.mode.text : '';
  return sections(text === '' ? rows : rows.filter((r) => matches(r, text)), ui.grouping, home);
}

/** Rows in the order the list shows them. */
export function displayOrder(rows: readonly Row[], ui: Ui, home: string): Row[] {
  return shownSections(rows, ui, home).flatMap((s) => s.rows);
}

/** The selected row: the chosen task if shown, else the one now at its place, else none. */
export function selectedRow(order: readonly Row[], ui: Ui): Row | null {
  const chosen = order.find((r) => r.id === ui.selected);
  if (chosen) return chosen;
  return order[Math.min(ui.index, order.length - 1)] ?? null;
}
