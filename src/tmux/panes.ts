// Reading panes: the one list-panes query fleetcom's reconciliation uses, and retained text.
import { batches, commandBytes } from './batch.js';
import { TmuxError } from './errors.js';
import { formatQuery, freshSeparator, parseFlag, parseIntOrNull } from './format.js';
import type { Query } from './queries.js';
import type { TmuxRun } from './runner.js';

export interface PaneRecord {
  paneId: string;
  windowId: string;
  windowIndex: number;
  windowName: string;
  sessionId: string;
  /**
   * The process has ended AND tmux has reaped it, so paneDeadStatus/paneDeadSignal can be
   * trusted (newer tmux defines #{pane_dead} this way). See paneExited.
   */
  paneDead: boolean;
  /**
   * tmux 3.3a's raw `#{pane_dead}`: the pty has closed. It can be 1 while the exit status is
   * still unknown: briefly, or — when the server missed the SIGCHLD (seen for ~1 in 12 fast
   * exits) — until some other child of the server exits. listPanes then nudges the server
   * (reapChildren); the pane-died hook, too, only fires once the status is known.
   */
  paneExited: boolean;
  /** Exit status of a dead pane; null while alive AND for a signal death (tmux 3.3 leaves it empty). */
  paneDeadStatus: number | null;
  /** The signal number that killed the pane's process (`#{pane_dead_signal}`), else null. */
  paneDeadSignal: number | null;
  /** Unix seconds of the death (`#{pane_dead_time}`), else null. */
  paneDeadTime: number | null;
  panePid: number | null;
  /** `#{pane_tty}`: the pane's terminal, or null. */
  paneTty: string | null;
  /** `#{window_activity}`: Unix seconds of the window's last output. */
  windowActivity: number | null;
  /** `#{pane_title}`: what the program in the pane last set (OSC 0/2); tmux's default is the host name. */
  paneTitle: string;
  /** Window option `@fleetcom-task` (null when unset or not a number). */
  fleetcomTask: number | null;
  fleetcomRun: number | null;
  /** Window option `@fleetcom-socket` (null when unset or empty). */
  fleetcomSocket: string | null;
}

export const PANE_FIELDS = [
  'pane_id', 'window_id', 'window_index', 'window_name', 'session_id', 'pane_dead', 'pane_dead_status',
  'pane_dead_signal', 'pane_dead_time', 'pane_pid', 'pane_tty', 'window_activity', 'pane_title', '@fleetcom-task', '@fleetcom-run', '@fleetcom-socket',
] as const;

/** Pure: one raw list-panes record → PaneRecord (exported for unit tests). */
export function toPaneRecord(r: Record<(typeof PANE_FIELDS)[number], string>): PaneRecord {
  const status = parseIntOrNull(r.pane_dead_status);
  const signal = parseIntOrNull(r.pane_dead_signal);
  const time = parseIntOrNull(r.pane_dead_time);
  const dead = parseFlag(r.pane_dead) && (status !== null || signal !== null || time !== null);
  return {
    paneId: r.pane_id,
    windowId: r.window_id,
    windowIndex: parseIntOrNull(r.window_index) ?? -1,
    windowName: r.window_name,
    sessionId: r.session_id,
    paneDead: dead,
    paneExited: parseFlag(r.pane_dead),
    paneDeadStatus: dead ? status : null,
    paneDeadSignal: dead ? signal : null,
    paneDeadTime: dead ? time : null,
    panePid: parseIntOrNull(r.pane_pid),
    paneTty: r.pane_tty === '' ? null : r.pane_tty,
    windowActivity: parseIntOrNull(r.window_activity),
    paneTitle: r.pane_title,
    fleetcomTask: parseIntOrNull(r['@fleetcom-task']),
    fleetcomRun: parseIntOrNull(r['@fleetcom-run']),
    fleetcomSocket: r['@fleetcom-socket'] === '' ? null : r['@fleetcom-socket'],
  };
}

/**
 * Every pane of a session (`list-panes -s -t <session>`), in window order, or of the whole
 * server (`list-panes -a`) when `session` is null. When a pane has
 * exited but tmux has not reaped it yet, also calls reapChildren so that a later query (and the
 * pane-died hook) sees it dead; the records returned are those read before.
 */
export async function listPanes(tmux: TmuxRun, session: string | null): Promise<PaneRecord[]> {
  const query = panesQuery(session);
  const panes = query.parse(await tmux.runSequence([query.command]));
  if (panes.some(needsReaping)) await reapChildren(tmux);
  return panes;
}

/** listPanes' read alone, to run with other queries (runQueries); it nudges no reaping. */
export function panesQuery(session: string | null): Query<PaneRecord[]> {
  const query = formatQuery(PANE_FIELDS);
  const scope = session === null ? ['-a'] : ['-s', '-t', session];
  return { command: ['list-panes', ...scope, '-F', query.format], parse: (out) => query.parse(out).map(toPaneRecord) };
}

/** The pane has exited but tmux has not reaped it (see PaneRecord.paneExited). */
export function needsReaping(pane: PaneRecord): boolean {
  return pane.paneExited && !pane.paneDead;
}

/**
 * A display-message format expanded only when its target pane exists. `display-message -t %N`
 * does not fail for a pane that is gone, and tmux 3.2a's server then crashes expanding
 * `#{window_activity}` (a NULL window; measured: segfault in format_find): a task window closed
 * by hand took the whole tmux server with it. `format` must hold no top-level comma.
 */
export function existingPaneOnly(format: string): string {
  return `#{?pane_id,${format},}`;
}

/**
 * One pane's record and its whole retained text (as capturePane with history), in ONE tmux
 * invocation: what the supervisor reads when a task's process has ended. Read together, the
 * text is the pane's as tmux knew it when the record was made, so a record that shows the pane
 * over comes with all of its output. null when the pane is gone.
 */
export async function paneWithText(tmux: TmuxRun, paneId: string): Promise<{ record: PaneRecord; text: string } | null> {
  const separator = freshSeparator();
  const query = formatQuery(PANE_FIELDS, separator);
  let out: string;
  try {
    out = await tmux.runSequence([['display-message', '-p', '-t', paneId, existingPaneOnly(query.format)], ['capture-pane', '-p', '-J', '-S', '-', '-E', '-', '-t', paneId]]);
  } catch (error) {
    if (error instanceof TmuxError && /can't find pane/.test(error.stderr)) return null;
    throw error;
  }
  // The record ends at its last field's separator; the capture follows on the next line.
  const pieces = out.split(separator);
  const record = query.parseOne(`${pieces.slice(0, PANE_FIELDS.length).join(separator)}${separator}`);
  const text = pieces.slice(PANE_FIELDS.length).join(separator).replace(/^\n/, '');
  return { record: toPaneRecord(record), text: tidyCapture(text) };
}

const LIVE_FIELDS = ['pane_id', 'pane_pid', 'pane_dead'] as const;

/**
 * The pid of each of these panes that is alive right now, each read by its own pane id
 * (`display-message -p -t %N`), so a signal goes to exactly the process tmux runs in that pane.
 * A pane that is gone or dead is left out. As few tmux calls as fit (batch.ts); tmux stops a
 * sequence at a pane it cannot find, so the rest are asked again after it.
 */
export async function livePanePids(tmux: TmuxRun, paneIds: readonly string[]): Promise<Map<string, number>> {
  const query = formatQuery(LIVE_FIELDS);
  const pids = new Map<string, number>();
  const ask = (id: string) => ['display-message', '-p', '-t', id, query.format];
  for (const batch of batches(paneIds, (id) => commandBytes([ask(id)]))) {
    let rest = batch;
    while (rest.length > 0) {
      let out: string;
      let stopped = false;
      try {
        out = await tmux.runSequence(rest.map(ask));
      } catch (error) {
        if (!(error instanceof TmuxError)) throw error;
        out = error.stdout;
        stopped = true;
      }
      const records = query.parse(out);
      records.forEach((r, i) => {
        const pid = parseIntOrNull(r.pane_pid);
        if (r.pane_id === rest[i] && !parseFlag(r.pane_dead) && pid !== null && pid > 1) pids.set(r.pane_id, pid);
      });
      rest = stopped ? rest.slice(records.length + 1) : [];
    }
  }
  return pids;
}

/**
 * tmux 3.3a sometimes misses a child's SIGCHLD and leaves it a zombie: the pane shows dead with
 * no status and pane-died does not fire. Any later child exit makes the server reap them all,
 * so this runs a trivial background job in the server (`run-shell -b true`). Harmless.
 */
export async function reapChildren(tmux: TmuxRun): Promise<void> {
  await tmux.runSequence([['run-shell', '-b', 'true']]);
}

/** Pure: trailing spaces trimmed on every line, trailing blank lines dropped. */
export function tidyCapture(text: string): string {
  return text.split('\n').map((l) => l.replace(/[ \t]+$/, '')).join('\n').replace(/\n+$/, '');
}

/**
 * The pane's text, wrapped lines joined (`-J`); `history: true` reads the whole retained text
 * (`-S - -E -`: scrollback + screen), else the visible screen only. A dead pane under
 * remain-on-exit also shows tmux's `Pane is dead (…)` line.
 */
export async function capturePane(tmux: TmuxRun, paneId: string, opts: { history: boolean }): Promise<string> {
  const range = opts.history ? ['-S', '-', '-E', '-'] : [];
  return tidyCapture(await tmux.runSequence([['capture-pane', '-p', '-J', ...range, '-t', paneId]]));
}

/** Drops the pane's scrollback (not the visible screen). */
export async function clearHistory(tmux: TmuxRun, paneId: string): Promise<void> {
  await tmux.runSequence([['clear-history', '-t', paneId]]);
}
