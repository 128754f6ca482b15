// The supervisor's line to its tmux server: one control-mode client (src/tmux/control/), made at
// `up` and made again after it drops, that carries its tmux commands (reads included: `ls`,
// `next` and the reconciliation spawn no tmux process) and brings tmux's changes as events —
// a window closed, a pane's title — to the supervisor within about a second. While it is down
// every command runs a tmux client of its own, as before, and the reconciliation runs at its
// old pace. FLEETCOM_TMUX_CONTROL=off does without it altogether.
import type { Env, TmuxRun, TmuxRunner } from '../../tmux/runner.js';
import { ControlRunner } from '../../tmux/control/control-runner.js';
import type { ControlEvent } from '../../tmux/control/parser.js';
import { parseVersion } from '../../tmux/version.js';

/** The subscription that reports every pane's title of the fleet's session as it changes. */
export const TITLE_SUBSCRIPTION = 'fleetcom-title';
/** Closed windows are gathered this long, then checked together. */
const CLOSE_BATCH_MS = 20;

/** What the link tells the supervisor. */
export interface LinkListener {
  titleChanged(paneId: string, title: string): void;
  windowsClosed(windowIds: ReadonlySet<string>): void;
  /** Something no event names may have changed (events missed while the connection was down). */
  lookSoon(): void;
}

export interface TmuxLinkState {
  /** off: FLEETCOM_TMUX_CONTROL=off; up: connected; down: being made again. */
  connection: 'up' | 'down' | 'off';
  /** Titles and closed windows arrive as events (the connection is up and tmux took the subscription). */
  events: boolean;
  /** What is missing and why; null when nothing is. */
  note: string | null;
}

export interface TmuxLink {
  /** What the supervisor runs tmux through: the connection while it is up, else a client per call. */
  readonly tmux: TmuxRun;
  /** The control runner (null when off): pane streams use its connection. */
  readonly control: ControlRunner | null;
  eventsFlow(): boolean;
  /** Events go to `listener` from now on. */
  serve(listener: LinkListener): void;
  state(): TmuxLinkState;
  stop(): Promise<void>;
}

export function controlWanted(env: Env): boolean {
  return !/^(off|0|no|false)$/i.test(env.FLEETCOM_TMUX_CONTROL ?? '');
}

export function linkTmux(spawned: TmuxRunner, opts: { session: string; env: Env; log: (line: string) => void }): TmuxLink {
  if (!controlWanted(opts.env)) {
    return {
      tmux: spawned, control: null, eventsFlow: () => false, serve: () => undefined,
      state: () => ({ connection: 'off', events: false, note: 'FLEETCOM_TMUX_CONTROL=off: a tmux client per command, changes seen at each reconciliation' }),
      stop: async () => undefined,
    };
  }
  const control = new ControlRunner(spawned, { session: opts.session, log: opts.log });
  control.subscribe(TITLE_SUBSCRIPTION, { what: '%*', format: '#{pane_title}' });
  let listener: LinkListener | null = null;
  let closing = new Set<string>();
  let batch: NodeJS.Timeout | null = null;
  control.onEvent((event) => {
    if (listener !== null) route(event, listener);
  });
  control.onConnected(() => listener?.lookSoon());
  const route = (event: ControlEvent, to: LinkListener) => {
    if (event.kind === 'subscription' && event.name === TITLE_SUBSCRIPTION && event.pane !== null) to.titleChanged(event.pane, event.value);
    else if (event.kind === 'window' && (event.change === 'close' || event.change === 'unlinked-close')) {
      closing.add(event.window);
      batch ??= setTimeout(() => {
        const ids = closing;
        closing = new Set();
        batch = null;
        listener?.windowsClosed(ids);
      }, CLOSE_BATCH_MS);
    }
    // A window added (%window-add) needs nothing: one fleetcom made is a task already, one
    // made outside it is none of the fleet's, and a task window moved back keeps its pane id.
  };
  control.start();
  return {
    tmux: control,
    control,
    eventsFlow: () => control.subscribed(TITLE_SUBSCRIPTION),
    serve: (to) => (listener = to),
    state: () => {
      const { connected, note } = control.state();
      return { connection: connected ? 'up' : 'down', events: control.subscribed(TITLE_SUBSCRIPTION), note };
    },
    stop: async () => {
      listener = null;
      if (batch !== null) clearTimeout(batch);
      await control.stop();
    },
  };
}

/** The tmux versions whose control clients can be sent a pane's output safely (see pane-streams.ts). */
export function streamsSupported(version: string): boolean {
  const v = parseVersion(`tmux ${version}`);
  return v.major === null || v.minor === null || v.major > 3 || (v.major === 3 && v.minor >= 3);
}
