// Where every pane of the server is and what runs it, for finding agents someone started by
// hand (`fleetcom adopt`), and making one of them a task window without restarting it.
import { formatQuery, parseFlag, parseIntOrNull } from './format.js';
import type { Query } from './queries.js';
import type { TmuxRun } from './runner.js';
import { renameCommand } from './windows.js';

export interface PanePlace {
  paneId: string;
  windowId: string;
  /** How many panes share its window. */
  windowPanes: number;
  sessionId: string;
  sessionName: string;
  panePid: number | null;
  paneTty: string | null;
  /** The pane's process has ended (tmux 3.3a's raw `#{pane_dead}`). */
  paneDead: boolean;
  /** Window options `@fleetcom-task` and `@fleetcom-socket` (null when unset). */
  task: string | null;
  socket: string | null;
}

const PLACE_FIELDS = [
  'pane_id', 'window_id', 'window_panes', 'session_id', 'session_name', 'pane_pid', 'pane_tty', 'pane_dead', '@fleetcom-task', '@fleetcom-socket',
] as const;

/** Every pane of the server (`list-panes -a`), and the server's own socket (`#{socket_path}`). */
export function panePlacesQuery(): Query<PanePlace[]> {
  const query = formatQuery(PLACE_FIELDS);
  return {
    command: ['list-panes', '-a', '-F', query.format],
    parse: (out) => query.parse(out).map((r) => ({
      paneId: r.pane_id,
      windowId: r.window_id,
      windowPanes: parseIntOrNull(r.window_panes) ?? 1,
      sessionId: r.session_id,
      sessionName: r.session_name,
      panePid: parseIntOrNull(r.pane_pid),
      paneTty: r.pane_tty === '' ? null : r.pane_tty,
      paneDead: parseFlag(r.pane_dead),
      task: r['@fleetcom-task'] === '' ? null : r['@fleetcom-task'],
      socket: r['@fleetcom-socket'] === '' ? null : r['@fleetcom-socket'],
    })),
  };
}

export async function listPanePlaces(tmux: TmuxRun): Promise<PanePlace[]> {
  const query = panePlacesQuery();
  return query.parse(await tmux.runSequence([query.command]));
}

export interface TakeOverSpec {
  paneId: string;
  /** Its window holds other panes too: the pane moves to a window of its own, right after it. */
  breakOut: { from: string } | null;
  name: string;
  windowOptions: Readonly<Record<string, string>>;
  windowHooks: Readonly<Record<string, string>>;
}

const TAKEN_FIELDS = ['window_id', 'pane_pid', 'pane_tty'] as const;

/**
 * Makes a running pane a task's window in ONE tmux call, leaving its process alone: moved to
 * a window of its own when it shares one (`break-pane -d -a`: in the same session, right after
 * the window it left), then the window's options, hooks and name, addressed through the pane
 * (a pane id names its window). The window and the pane's process as tmux knows them after.
 */
export async function takeOverPane(tmux: TmuxRun, spec: TakeOverSpec): Promise<{ windowId: string; panePid: number | null; paneTty: string | null }> {
  const target = spec.paneId;
  const query = formatQuery(TAKEN_FIELDS);
  const out = await tmux.runSequence([
    ...(spec.breakOut ? [['break-pane', '-d', '-a', '-s', target, '-t', spec.breakOut.from]] : []),
    ...Object.entries(spec.windowOptions).map(([k, v]) => ['set-option', '-w', '-t', target, k, v]),
    ...Object.entries(spec.windowHooks).map(([k, v]) => ['set-hook', '-w', '-t', target, k, v]),
    renameCommand(target, spec.name),
    ['display-message', '-p', '-t', target, query.format],
  ]);
  const read = query.parseOne(out);
  return { windowId: read.window_id, panePid: parseIntOrNull(read.pane_pid), paneTty: read.pane_tty === '' ? null : read.pane_tty };
}
