// The supervisor's line to its tmux server: one control-mode client (src/tmux/control/), made at
// `up` and made again after it drops, that carries its tmux commands (reads included: `ls`,
// `next` and the reconciliation spawn no tmux process) and brings tmux's changes as events —
// a window closed, a pane's title — to the supervisor within about a second. While it is down
// every command runs a tmux client of its own, as before, and the reconciliation runs at its
// old pace. FLEETCOM_TMUX_CONTROL=off does without it altogether.
import type { Env, TmuxRun, TmuxRunner } from '../../tmux/runner.js';
import { ControlRunner } from '../../tmux/control/control-runner.js';
import type { ControlEvent } from '../../tmux/control/parser.js';
import { PaneStreams, type PaneSink, type PaneWatch } from '../../tmux/control/pane-streams.js';
import { firstScreen, sendInput, type PaneScreen } from '../../tmux/control/pane-screen.js';

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
  /** A task's pane can be watched (`watch`): the connection is up and tmux is 3.3 or newer. */
  streams: boolean;
  /** What is missing and why; null when nothing is. */
  note: string | null;
}

/** A pane for a viewer: its screen and output as they come, and input into it (pane-streams.ts). */
export interface PaneIo {
  /** Why panes cannot be watched here (no connection, a tmux too old), or null. */
  unavailable(): string | null;
  watch(paneId: string, sink: PaneSink): PaneWatch;
  firstScreen(paneId: string): Promise<PaneScreen>;
  sendInput(paneId: string, bytes: Buffer): Promise<void>;
}

export interface TmuxLink {
  /** What the supervisor runs tmux through: the connection while it is up, else a client per call. */
  readonly tmux: TmuxRun;
  readonly panes: PaneIo;
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

/** `version`: the server's `#{version}` (pane streams need 3.3). */
export function linkTmux(spawned: TmuxRunner, opts: { session: string; version: string; env: Env; log: (line: string) => void }): TmuxLink {
  if (!controlWanted(opts.env)) {
    return {
      tmux: spawned, control: null, panes: paneIo(new PaneStreams(null, opts.session, opts.version), spawned), eventsFlow: () => false, serve: () => undefined,
      state: () => ({ connection: 'off', events: false, streams: false, note: 'FLEETCOM_TMUX_CONTROL=off: a tmux client per command, changes seen at each reconciliation, no pane streams' }),
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
  const streams = new PaneStreams(control, opts.session, opts.version);
  control.start();
  return {
    tmux: control,
    control,
    panes: paneIo(streams, control),
    eventsFlow: () => control.subscribed(TITLE_SUBSCRIPTION),
    serve: (to) => (listener = to),
    state: () => {
      const { connected, note } = control.state();
      const streamless = streams.unavailable();
      const notes = [note, connected ? streamless : null].filter((n) => n !== null);
      return { connection: connected ? 'up' : 'down', events: control.subscribed(TITLE_SUBSCRIPTION), streams: connected && streamless === null, note: notes.join('; ') || null };
    },
    stop: async () => {
      listener = null;
      streams.close('the fleet is going down');
      if (batch !== null) clearTimeout(batch);
      await control.stop();
    },
  };
}

function paneIo(streams: PaneStreams, tmux: TmuxRun): PaneIo {
  return {
    unavailable: () => streams.unavailable(),
    watch: (paneId, sink) => streams.watch(paneId, sink),
    firstScreen: (paneId) => firstScreen(tmux, paneId),
    sendInput: (paneId, bytes) => sendInput(tmux, paneId, bytes),
  };
}
