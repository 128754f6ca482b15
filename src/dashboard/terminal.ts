// The dashboard's terminal loop, kept thin: raw keys in, the pure view out. It owns the
// alternate screen while it runs, redraws only lines that changed, refreshes within a second
// of a fleet change (plus a 1 s tick for ages and idleness), and reads the latest output line
// of the rows on screen only, one tmux call for all of them. The hosts' rows (when `up` reaches
// hosts) come from their own loop: each round asks every host at once under the hosts'
// deadline, and every redraw shows the latest answers, so a slow or dropped host never holds
// this machine's rows.
import { statusLine } from '../worktree-record.js';
import type { Output } from '../deps.js';
import type { Task } from '../fleet/supervisor/task.js';
import { capturePanes } from '../tmux/screens.js';
import { perform, type ActionDeps } from './actions.js';
import { decodeKeys } from './input.js';
import { handleKey, type Action } from './keys.js';
import { openAdopt, openFinish, openHistory, openLoad } from './openers.js';
import { rowsToRead, type KnownLine } from './line-reads.js';
import { HOST_POLL_MS, hostRows, hostStatuses, HostRowIds, type HostAnswer } from './host-rows.js';
import { initialUi, latestLine, rowOf, type Grouping, type Ui } from './model.js';
import { render, type LineStyle } from './view.js';

export interface TerminalIn {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (data: string) => void): unknown;
  off(event: 'data', listener: (data: string) => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export interface TerminalOut extends Output {
  columns?: number;
  rows?: number;
  hasColors?: (count: number, env: Record<string, string>) => boolean;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

export interface DashboardDeps extends ActionDeps {
  input: TerminalIn;
  output: TerminalOut;
  /** Where the log lines of the dashboard's life are written once the screen is restored. */
  stderr: Output;
  /** The grouping at start (config.json `groupBy`, up --group-by). */
  grouping?: Grouping;
  /** Output silence after which a running task is idle. */
  idleMs?: number;
}

export interface Dashboard {
  /** The fleet changed: redraw soon. */
  changed(): void;
  /** A log line: shown in the status line, kept for stderr. */
  log(line: string): void;
  /** Restores the terminal and prints the log lines kept meanwhile. */
  close(): void;
}

const STYLE: Record<LineStyle, [string, string]> = {
  plain: ['', ''],
  header: ['\x1b[1m', '\x1b[0m'],
  title: ['\x1b[1m', '\x1b[0m'],
  selected: ['\x1b[7m', '\x1b[0m'],
  status: ['', ''],
  waiting: ['\x1b[33m', '\x1b[0m'],
  permission: ['\x1b[1;31m', '\x1b[0m'],
};
const COLOURED: ReadonlySet<LineStyle> = new Set(['waiting', 'permission']);

/** Colours only where wanted and possible: not under NO_COLOR, not on a terminal without them. */
export function coloursWanted(env: Record<string, string>, output: { hasColors?: (count: number, env: Record<string, string>) => boolean }): boolean {
  if ((env.NO_COLOR ?? '') !== '' || env.TERM === 'dumb') return false;
  return output.hasColors?.(8, env) ?? false;
}
const TICK_MS = 1_000;
const SOON_MS = 30;
const KEPT_LOG_LINES = 500;
/** Lines above the screen read too: a pane made smaller pushes its last output up there. */
const HISTORY_LINES = 30;

export function startDashboard(deps: DashboardDeps): Dashboard {
  const { input, output } = deps;
  let ui: Ui = { ...initialUi, grouping: deps.grouping ?? initialUi.grouping, status: 'press ? for help' };
  let drawn: string[] = [];
  let visible: number[] = [];
  let pending: NodeJS.Timeout | null = null;
  let capturing = false;
  let closed = false;
  const kept: string[] = [];
  /** Latest output line per task, with what the task was when it was read. */
  const lines = new Map<number, KnownLine>();

  const colour = coloursWanted(deps.env, output);
  const tasks = (): Task[] => [...deps.fleet.tasks()];
  const feed = deps.hosts ?? null;
  const answers = new Map<string, HostAnswer>();
  const hostIds = new HostRowIds();
  let hostTimer: NodeJS.Timeout | null = null;
  let polling = false;
  let pollAgain = false;
  const rows = () => {
    const now = deps.now();
    const local = tasks().map((t) => {
      const known = lines.get(t.id);
      const branch = t.worktree ? statusLine(t.worktree.branch, deps.fleet.worktreeStatus?.(t.worktree.path) ?? null) : null;
      return rowOf(t, now, known && known.run === t.run ? known.line : '', deps.fleet.attention(t), deps.idleMs, branch);
    });
    return feed === null ? local : [...local, ...hostRows(feed.hosts, answers, now, hostIds)];
  };

  /** One round of asking every host; the next starts HOST_POLL_MS after it ends (or at once when asked for meanwhile). */
  const pollHosts = () => {
    if (feed === null || closed) return;
    if (polling) {
      pollAgain = true;
      return;
    }
    if (hostTimer) clearTimeout(hostTimer);
    hostTimer = null;
    polling = true;
    feed.poll()
      .then((got) => {
        for (const answer of got) answers.set(answer.host, answer);
      })
      .catch((error: Error) => {
        ui = { ...ui, status: `could not ask the hosts: ${error.message}` };
      })
      .finally(() => {
        polling = false;
        if (closed) return;
        soon();
        if (pollAgain) {
          pollAgain = false;
          pollHosts();
        } else hostTimer = setTimeout(pollHosts, HOST_POLL_MS);
      });
  };

  const draw = () => {
    pending = null;
    if (closed) return;
    const width = output.columns ?? 80;
    const height = output.rows ?? 24;
    const screen = render({ rows: rows(), ui, home: deps.home, width, height, hosts: feed === null ? undefined : hostStatuses(feed.hosts, answers) });
    ui = { ...ui, scroll: screen.scroll };
    visible = screen.visible;
    let out = drawn.length !== screen.lines.length ? '\x1b[2J' : '';
    if (out) drawn = [];
    screen.lines.forEach((line, i) => {
      const style = screen.styles[i] ?? 'plain';
      const styled = STYLE[COLOURED.has(style) && !colour ? 'plain' : style];
      const text = `${styled[0]}${line}${styled[1]}`;
      if (drawn[i] !== text) out += `\x1b[${i + 1};1H${text}`;
      drawn[i] = text;
    });
    if (out) output.write(out);
  };
  const soon = () => {
    if (!pending && !closed) pending = setTimeout(draw, SOON_MS);
  };

  /** Reads the screens of the visible rows whose line can still change. */
  const refreshLines = async () => {
    if (capturing || closed) return;
    capturing = true;
    try {
      const wanted = rowsToRead(tasks(), visible, lines, deps.now(), deps.idleMs);
      const when = new Map(wanted.map((t) => [t.id, { ended: t.endedAt !== null, outputAt: t.lastOutputAt }]));
      const screens = await capturePanes(deps.tmux, wanted.map((t) => t.paneId), HISTORY_LINES);
      let changed = false;
      for (const t of wanted) {
        const screen = screens.get(t.paneId);
        if (screen === null || screen === undefined) continue;
        const line = latestLine(screen);
        if (lines.get(t.id)?.line !== line) changed = true;
        lines.set(t.id, { run: t.run, ended: when.get(t.id)?.ended ?? false, outputAt: when.get(t.id)?.outputAt ?? t.lastOutputAt, line });
      }
      if (changed) soon();
    } catch (error) {
      ui = { ...ui, status: `could not read the task screens: ${(error as Error).message}` };
    } finally {
      capturing = false;
    }
  };

  const act = (action: Action) => {
    perform(action, deps)
      .then((outcome) => {
        if ('choices' in outcome) ui = openLoad(ui, outcome.choices);
        else if ('agentPanes' in outcome) ui = openAdopt(ui, outcome.agentPanes);
        else if ('history' in outcome) ui = openHistory(ui, outcome.history, outcome.where);
        else if ('finish' in outcome) ui = openFinish(ui, outcome.finish);
        else if (outcome.status) ui = { ...ui, status: outcome.status };
      })
      .catch((error: Error) => {
        ui = { ...ui, status: `error: ${error.message}` };
      })
      .finally(() => {
        // What was done on a host shows in its rows at the next answer: ask now.
        if (action.kind === 'host-rerun' || action.kind === 'host-show') pollHosts();
        soon();
      });
  };

  const onData = (data: string) => {
    for (const key of decodeKeys(data)) {
      const result = handleKey(ui, key, rows(), deps.home);
      ui = result.ui;
      if (result.action) act(result.action);
    }
    draw();
  };
  const onResize = () => {
    drawn = [];
    output.write('\x1b[2J');
    draw();
  };

  input.setRawMode?.(true);
  input.setEncoding('utf8');
  input.on('data', onData);
  input.resume();
  output.on('resize', onResize);
  output.write('\x1b[?1049h\x1b[?25l\x1b[2J');
  draw();
  void refreshLines().then(draw);
  pollHosts();
  const tick = setInterval(() => {
    void refreshLines();
    draw();
  }, TICK_MS);

  return {
    changed() {
      soon();
      setTimeout(() => void refreshLines(), SOON_MS * 3);
    },
    log(line) {
      kept.push(line);
      if (kept.length > KEPT_LOG_LINES) kept.shift();
      ui = { ...ui, status: line };
      soon();
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(tick);
      if (pending) clearTimeout(pending);
      if (hostTimer) clearTimeout(hostTimer);
      input.off('data', onData);
      output.off('resize', onResize);
      try {
        input.setRawMode?.(false);
        input.pause();
        output.write('\x1b[0m\x1b[?25h\x1b[?1049l');
        for (const line of kept) deps.stderr.write(`${line}\n`);
      } catch {
        // The terminal is gone (its window was closed): nothing left to restore.
      }
    },
  };
}
