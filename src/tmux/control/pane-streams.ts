// A pane's output as a stream, for whoever watches it (the browser view): its screen first,
// then every byte the program writes, over the control connection; and input typed into it.
//
// Output is switched on only for watched panes: the client attaches with `no-output`, which is
// cleared while any pane is watched, and every other pane of the session is turned off
// (`refresh-client -A %N:off`; one that shows up later is turned off at its first output).
// Flow control, so that a pane printing 50 MB/s never grows the supervisor's memory:
//   - a watcher whose sink says it is behind (its socket's buffer is full) gets nothing more
//     until it resume()s, then a fresh screen; when every watcher of a pane is behind, tmux
//     pauses the pane (`%N:pause`, tmux drops its output) until one resumes (`%N:continue`);
//   - tmux itself pauses a pane whose output waited more than PAUSE_AFTER_S for this client
//     (`pause-after`: the supervisor was busy), which is continued at once with a fresh screen;
//   - a pane writing more than BUDGET_BYTES a BUDGET_MS is paused for the rest of that time and
//     shown again from a fresh screen: a view of a flood needs its screens, not every byte,
//     and the supervisor's CPU stays its own.
// A screen is captured in the same tmux command line that switches the pane's output on (or
// continues it), and answers come in stream order, so the output after a screen is exactly
// what the program wrote after it.
// Streams need tmux 3.3 (pane-screen.ts says why).
import { FleetError } from '../../errors.js';
import type { ControlConnection } from './connection.js';
import type { ControlRunner } from './control-runner.js';
import type { ControlEvent } from './parser.js';
import { screenCommands, screenOf, streamsSupported, type PaneScreen } from './pane-screen.js';

export const PAUSE_AFTER_S = 2;
export const BUDGET_MS = 100;
export const BUDGET_BYTES = 512 * 1024;
export type PaneEvent =
  /** The pane as it is now, as bytes for a terminal: clear, its lines, the cursor placed. */
  | PaneScreen
  /** Bytes the program wrote after the last screen. */
  | { kind: 'output'; data: Buffer }
  /** Nothing more comes (the pane is gone, the fleet goes down). */
  | { kind: 'end'; reason: string };

/** Takes one event; false when the consumer is behind (nothing more until `resume()`). */
export type PaneSink = (event: PaneEvent) => boolean;

export interface PaneWatch {
  /** The consumer has caught up: it gets a fresh screen, then the output after it. */
  resume(): void;
  stop(): void;
}

interface Watcher {
  sink: PaneSink;
  /** Said it is behind: gets nothing until resume(). */
  behind: boolean;
  /** Waits for its fresh screen: output before it is not its. */
  awaiting: boolean;
}

interface Pane {
  id: string;
  watchers: Set<Watcher>;
  /** What tmux does with its output for this client. */
  tmux: 'starting' | 'on' | 'paused';
  budgetFrom: number;
  budgetUsed: number;
  /** A continue is planned (after a flood's pause). */
  later: NodeJS.Timeout | null;
}

export class PaneStreams {
  private readonly panes = new Map<string, Pane>();
  /** Panes turned off while output flows (so each is told once). */
  private readonly silenced = new Set<string>();
  private outputOn = false;

  /**
   * `runner`: the connection to stream over (null: off); `session`: the session it is
   * attached to; `version`: the server's `#{version}`.
   */
  constructor(private readonly runner: ControlRunner | null, private readonly session: string, private readonly version: string, private readonly now: () => number = Date.now) {
    runner?.onEvent((event) => this.event(event));
    runner?.onConnected(() => this.reconnected());
  }

  /** Why panes cannot be streamed here, or null when they can. */
  unavailable(): string | null {
    if (this.runner === null) return 'pane streams need the tmux control connection (FLEETCOM_TMUX_CONTROL is off)';
    if (!streamsSupported(this.version)) return `pane streams need tmux 3.3 or newer (tmux ${this.version} can crash when a streamed pane dies)`;
    return null;
  }

  /** Starts sending the pane's screen, then its output, to `sink`. Throws when streams are unavailable. */
  watch(paneId: string, sink: PaneSink): PaneWatch {
    const why = this.unavailable();
    if (why !== null) throw new FleetError(why);
    if (!/^%\d+$/.test(paneId)) throw new FleetError(`not a pane id: ${paneId}`);
    const watcher: Watcher = { sink, behind: false, awaiting: true };
    let pane = this.panes.get(paneId);
    if (pane === undefined) {
      pane = { id: paneId, watchers: new Set([watcher]), tmux: 'starting', budgetFrom: this.now(), budgetUsed: 0, later: null };
      this.panes.set(paneId, pane);
      this.start(pane);
    } else {
      pane.watchers.add(watcher);
      this.screen(pane, pane.tmux === 'paused');
    }
    const watched = pane;
    return {
      resume: () => {
        if (!watched.watchers.has(watcher) || !watcher.behind) return;
        watcher.behind = false;
        watcher.awaiting = true;
        this.screen(watched, watched.tmux === 'paused');
      },
      stop: () => this.unwatch(watched, watcher),
    };
  }

  /** Every watcher is told the end (the fleet goes down). */
  close(reason: string): void {
    for (const pane of [...this.panes.values()]) this.end(pane, reason);
  }

  private connection(): ControlConnection | null {
    return this.runner?.current() ?? null;
  }

  /** Output on for the pane (and off for the others of the session when none flowed), then its screen. */
  private start(pane: Pane): void {
    const connection = this.connection();
    if (connection === null) return; // made when the connection is back
    pane.tmux = 'starting';
    const begin = () => {
      const first = !this.outputOn;
      this.outputOn = true;
      connection.send([
        ['refresh-client', ...(first ? ['-f', `!no-output,pause-after=${PAUSE_AFTER_S}`] : []), '-A', `${pane.id}:off`],
        ['refresh-client', '-A', `${pane.id}:on`],
        ...screenCommands(pane.id),
      ], (answer) => {
        if (!answer.ok) return this.end(pane, answer.error.stderr.includes("can't find pane") ? 'the pane is gone' : answer.error.message);
        pane.tmux = 'on';
        this.deliverScreen(pane, answer.output);
      });
    };
    if (this.outputOn) return begin();
    // The session's other panes are turned off before output is let through.
    connection.send([['list-panes', '-s', '-t', this.session, '-F', '#{pane_id}']], (answer) => {
      const others = answer.ok ? answer.output.split('\n').filter((id) => /^%\d+$/.test(id) && !this.panes.has(id)) : [];
      for (const id of others) this.silenced.add(id);
      if (others.length > 0) connection.send([['refresh-client', ...others.flatMap((id) => ['-A', `${id}:off`])]], () => undefined);
      if (this.panes.get(pane.id) === pane) begin();
    });
  }

  /** A fresh screen for the pane's awaiting watchers; `resume`: the pane is paused in tmux, continue it too. */
  private screen(pane: Pane, resume: boolean): void {
    const connection = this.connection();
    if (connection === null || pane.tmux === 'starting') return;
    if (pane.later !== null) return; // a flood's continue will bring one
    if (resume) pane.tmux = 'starting';
    connection.send([...(resume ? [['refresh-client', '-A', `${pane.id}:continue`]] : []), ...screenCommands(pane.id)], (answer) => {
      if (!answer.ok) return this.end(pane, answer.error.stderr.includes("can't find pane") ? 'the pane is gone' : answer.error.message);
      if (resume) pane.tmux = 'on';
      this.deliverScreen(pane, answer.output);
    });
  }

  private deliverScreen(pane: Pane, output: string): void {
    if (this.panes.get(pane.id) !== pane) return;
    // A refresh-client -A continue answers with `%continue %N` before the screen's lines.
    const lines = output.split('\n');
    while (lines.length > 0 && /^%(continue|pause) %\d+$/.test(lines[0]!)) lines.shift();
    const screen = screenOf(lines.join('\n'));
    if (screen === null) return this.end(pane, 'tmux gave no screen');
    pane.budgetFrom = this.now();
    pane.budgetUsed = 0;
    for (const watcher of [...pane.watchers]) {
      if (!watcher.awaiting || watcher.behind) continue;
      watcher.awaiting = false;
      if (!watcher.sink(screen)) watcher.behind = true;
    }
    this.pauseIfAllBehind(pane);
  }

  private event(event: ControlEvent): void {
    if (event.kind === 'output') return this.output(event.pane, event.data);
    if (event.kind === 'pause') {
      const pane = this.panes.get(event.pane);
      // tmux paused it (output waited too long for us): every watcher needs a fresh screen.
      if (pane !== undefined && pane.tmux === 'on') {
        pane.tmux = 'paused';
        for (const watcher of pane.watchers) watcher.awaiting = true;
        if ([...pane.watchers].some((w) => !w.behind)) this.screen(pane, true);
      }
      return;
    }
    if (event.kind === 'window' && (event.change === 'close' || event.change === 'unlinked-close')) this.checkPanes();
  }

  private output(paneId: string, data: Buffer): void {
    const pane = this.panes.get(paneId);
    if (pane === undefined) {
      if (this.outputOn && !this.silenced.has(paneId)) {
        this.silenced.add(paneId);
        this.connection()?.send([['refresh-client', '-A', `${paneId}:off`]], () => undefined);
      }
      return;
    }
    if (pane.tmux !== 'on') return;
    const now = this.now();
    if (now - pane.budgetFrom >= BUDGET_MS) {
      pane.budgetFrom = now;
      pane.budgetUsed = 0;
    }
    pane.budgetUsed += data.length;
    if (pane.budgetUsed > BUDGET_BYTES) return this.flood(pane, BUDGET_MS - (now - pane.budgetFrom));
    for (const watcher of [...pane.watchers]) {
      if (watcher.behind || watcher.awaiting) continue;
      if (!watcher.sink({ kind: 'output', data })) watcher.behind = true;
    }
    this.pauseIfAllBehind(pane);
  }

  /** Over its budget: paused for the rest of the time, then shown from a fresh screen. */
  private flood(pane: Pane, restMs: number): void {
    pane.tmux = 'paused';
    for (const watcher of pane.watchers) watcher.awaiting = true;
    this.connection()?.send([['refresh-client', '-A', `${pane.id}:pause`]], () => undefined);
    pane.later = setTimeout(() => {
      pane.later = null;
      if (this.panes.get(pane.id) === pane) this.screen(pane, true);
    }, Math.max(0, restMs));
  }

  private pauseIfAllBehind(pane: Pane): void {
    if (pane.tmux !== 'on' || pane.watchers.size === 0 || [...pane.watchers].some((w) => !w.behind)) return;
    pane.tmux = 'paused';
    for (const watcher of pane.watchers) watcher.awaiting = true;
    this.connection()?.send([['refresh-client', '-A', `${pane.id}:pause`]], () => undefined);
  }

  private unwatch(pane: Pane, watcher: Watcher): void {
    if (!pane.watchers.delete(watcher) || pane.watchers.size > 0) return;
    this.connection()?.send([['refresh-client', '-A', `${pane.id}:off`]], () => undefined);
    this.forget(pane);
  }

  private forget(pane: Pane): void {
    if (this.panes.get(pane.id) !== pane) return;
    if (pane.later !== null) clearTimeout(pane.later);
    this.panes.delete(pane.id);
    this.silenced.add(pane.id);
    if (this.panes.size > 0 || !this.outputOn) return;
    this.outputOn = false;
    this.silenced.clear();
    this.connection()?.send([['refresh-client', '-f', 'no-output']], () => undefined);
  }

  private end(pane: Pane, reason: string): void {
    const watchers = [...pane.watchers];
    pane.watchers.clear();
    // A pane that is still there (no screen came) would go on sending output nobody reads.
    if (reason !== 'the pane is gone') this.connection()?.send([['refresh-client', '-A', `${pane.id}:off`]], () => undefined);
    this.forget(pane);
    for (const watcher of watchers) watcher.sink({ kind: 'end', reason });
  }

  /** A window closed: a watched pane that is gone ends its watchers' streams. */
  private checkPanes(): void {
    const connection = this.connection();
    for (const pane of this.panes.values()) {
      // A pane that is gone prints nothing here (display-message does not fail on it).
      connection?.send([['display-message', '-p', '-t', pane.id, '#{pane_id}']], (answer) => {
        if (answer.ok && answer.output !== pane.id) this.end(pane, 'the pane is gone');
      });
    }
  }

  /** A new connection: every watched pane starts again from a screen (output went unseen meanwhile). */
  private reconnected(): void {
    this.outputOn = false;
    this.silenced.clear();
    for (const pane of this.panes.values()) {
      for (const watcher of pane.watchers) watcher.awaiting = true;
      if (pane.later !== null) clearTimeout(pane.later);
      pane.later = null;
      this.start(pane);
    }
  }
}
