// Reading panes: the one list-panes query fleetcom's reconciliation uses, and retained text.
import { buildFormat, parseFlag, parseIntOrNull, parseRecords } from './format.js';
import type { TmuxRun } from './runner.js';

export interface PaneRecord {
  paneId: string;
  windowId: string;
  windowIndex: number;
  windowName: string;
  sessionId: string;
  paneDead: boolean;
  /** Exit status of a dead pane; null while alive AND for a signal death (tmux 3.3 leaves it empty). */
  paneDeadStatus: number | null;
  panePid: number | null;
  /** `#{window_activity}`: Unix seconds of the window's last output. */
  windowActivity: number | null;
  /** Window option `@fleetcom-task` (null when unset or not a number). */
  fleetcomTask: number | null;
  fleetcomRun: number | null;
  /** Window option `@fleetcom-socket` (null when unset or empty). */
  fleetcomSocket: string | null;
}

export const PANE_FIELDS = [
  'pane_id', 'window_id', 'window_index', 'window_name', 'session_id', 'pane_dead', 'pane_dead_status',
  'pane_pid', 'window_activity', '@fleetcom-task', '@fleetcom-run', '@fleetcom-socket',
] as const;

/** Pure: one raw list-panes record → PaneRecord (exported for unit tests). */
export function toPaneRecord(r: Record<(typeof PANE_FIELDS)[number], string>): PaneRecord {
  return {
    paneId: r.pane_id,
    windowId: r.window_id,
    windowIndex: parseIntOrNull(r.window_index) ?? -1,
    windowName: r.window_name,
    sessionId: r.session_id,
    paneDead: parseFlag(r.pane_dead),
    paneDeadStatus: parseFlag(r.pane_dead) ? parseIntOrNull(r.pane_dead_status) : null,
    panePid: parseIntOrNull(r.pane_pid),
    windowActivity: parseIntOrNull(r.window_activity),
    fleetcomTask: parseIntOrNull(r['@fleetcom-task']),
    fleetcomRun: parseIntOrNull(r['@fleetcom-run']),
    fleetcomSocket: r['@fleetcom-socket'] === '' ? null : r['@fleetcom-socket'],
  };
}

/** Every pane of a session (`list-panes -s -t <session>`), in window order. */
export async function listPanes(tmux: TmuxRun, session: string): Promise<PaneRecord[]> {
  const out = await tmux.runSequence([['list-panes', '-s', '-t', session, '-F', buildFormat(PANE_FIELDS)]]);
  return parseRecords(PANE_FIELDS, out).map(toPaneRecord);
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
