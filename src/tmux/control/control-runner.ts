// A TmuxRun over one control connection (connection.ts), with a spawned tmux client per call
// (runner.ts) as the fallback while the connection is down or for what it must not carry.
//
// What goes over the connection: commands that act on what they name and on no "current
// client" (ROUTES). A control client is attached, so a command that picks the current client
// or the current window would pick this client or its session's current window, where a
// spawned client (unattached, with the supervisor's $TMUX_PANE) picks the supervisor's pane
// and the person's client: display-popup, switch-client without -c, set-option -w without a
// target and the like go to a spawned client. So do new-window and respawn-pane, whose new
// process takes PATH from an unattached client, and `wait-for`, which would hold up the
// connection. A call with `path` or `signal` is spawned too.
//
// The connection is made by start() and made again after it closes, after 0.25 s, then
// doubling to 30 s; its loss and its return are each logged once. A call in flight when it
// closes is run again on a spawned client when it cannot have changed anything twice (reads,
// options, names: RETRIED); any other fails as a tmux call whose client died would.
import { TmuxError } from '../errors.js';
import type { RunOptions, TmuxRun, TmuxRunner } from '../runner.js';
import { ControlConnection, type Answer } from './connection.js';
import type { ControlEvent } from './parser.js';
import { splitCommands } from './quote.js';

const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000] as const;

type Route = (args: readonly string[]) => boolean;
/** `-x` among the flags, alone or in a cluster (`-gq`). */
const has = (letter: string) => (args: readonly string[]) => args.some((a) => /^-[A-Za-z]+$/.test(a) && a.includes(letter));
const targeted = has('t');
const either = (...routes: Route[]): Route => (args) => routes.some((r) => r(args));
const both = (...routes: Route[]): Route => (args) => routes.every((r) => r(args));
const always: Route = () => true;
/** A format naming no pane, window, session or client of its own (those would be this client's). */
const placeless: Route = (args) => !args.some((a) => /#\{[^}]*\b(pane|window|session|client)_/.test(a));

const ROUTES: Readonly<Record<string, Route>> = {
  'list-panes': either(has('a'), targeted),
  'list-windows': either(has('a'), targeted),
  'list-sessions': always,
  'list-clients': always,
  'list-keys': always,
  'display-message': both(has('p'), either(targeted, placeless)),
  'show-options': either(targeted, has('g'), has('s')),
  'show-window-options': either(targeted, has('g')),
  'show-environment': either(targeted, has('g')),
  'show-hooks': either(targeted, has('g')),
  'capture-pane': both(has('p'), targeted),
  'has-session': targeted,
  'set-option': either(targeted, has('g'), has('s')),
  'set-window-option': either(targeted, has('g')),
  'set-hook': either(targeted, has('g')),
  'set-environment': either(targeted, has('g')),
  'rename-window': targeted,
  'select-window': targeted,
  'last-window': targeted,
  'kill-window': targeted,
  'kill-pane': targeted,
  'clear-history': targeted,
  'send-keys': targeted,
  'switch-client': has('c'),
  'run-shell': has('b'),
  'bind-key': always,
  'unbind-key': always,
};

/** Commands that, run a second time, change nothing the first run did not. */
const RETRIED = new Set([
  'list-panes', 'list-windows', 'list-sessions', 'list-clients', 'list-keys', 'display-message', 'show-options', 'show-window-options',
  'show-environment', 'show-hooks', 'capture-pane', 'has-session', 'set-option', 'set-window-option', 'set-hook', 'set-environment',
  'rename-window', 'select-window', 'switch-client', 'bind-key', 'unbind-key', 'run-shell',
]);

/** Whether these commands may go over a control connection (see the file's comment). */
export function carriedOver(commands: readonly (readonly string[])[]): boolean {
  return commands.length > 0 && commands.every(([name, ...args]) => name !== undefined && Object.hasOwn(ROUTES, name) && ROUTES[name]!(args));
}

export interface Subscription {
  /** What to watch: `%*` every pane of the attached session, `@*` every window, `%N`, `@N`, or '' the session. */
  what: string;
  format: string;
}

export interface ControlRunnerOptions {
  /** The session the client attaches to (`$N`): its panes' output and titles are what it sees. */
  session: string;
  log(line: string): void;
}

export interface ControlState {
  connected: boolean;
  /** Why it is not, or what it cannot do (a subscription tmux refused); null when all is well. */
  note: string | null;
  /** The client's pid while connected. */
  pid: number | null;
}

export class ControlRunner implements TmuxRun {
  private connection: ControlConnection | null = null;
  private readonly listeners = new Set<(event: ControlEvent) => void>();
  private readonly connectedListeners = new Set<() => void>();
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly refused = new Map<string, string>();
  private started = false;
  private stopped = false;
  private attempt = 0;
  private timer: NodeJS.Timeout | null = null;
  private down: string | null = null;

  constructor(readonly spawned: TmuxRunner, private readonly opts: ControlRunnerOptions) {}

  /** Connects in the background; calls are spawned until the connection is up. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    const connection = this.connection;
    this.connection = null;
    await connection?.close();
  }

  get connected(): boolean {
    return this.connection?.isOpen === true;
  }

  state(): ControlState {
    const notes = [...this.refused.entries()].map(([name, why]) => `tmux refused the subscription ${name}: ${why}`);
    return { connected: this.connected, note: this.connected ? (notes.join('; ') || null) : (this.down ?? (this.started ? 'connecting' : 'not started')), pid: this.connected ? (this.connection?.pid ?? null) : null };
  }

  /** The connection while it is up (pane streams use it directly), else null. */
  current(): ControlConnection | null {
    return this.connected ? this.connection : null;
  }

  /** Notifications of every connection, in stream order. */
  onEvent(listener: (event: ControlEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after each connection is made (events may have been missed while it was down). */
  onConnected(listener: () => void): () => void {
    this.connectedListeners.add(listener);
    return () => this.connectedListeners.delete(listener);
  }

  /**
   * A format subscription (`refresh-client -B`), made on every connection; tmux then reports
   * its value as it changes, at most once a second. subscribed() says whether it holds now
   * (tmux may refuse one: then it is logged once and said by state()).
   */
  subscribe(name: string, subscription: Subscription): void {
    this.subscriptions.set(name, subscription);
    const connection = this.current();
    if (connection !== null) void this.applySubscription(connection, name, subscription);
  }

  /** The subscription is in place on the connection that is up. */
  subscribed(name: string): boolean {
    return this.connected && this.subscriptions.has(name) && !this.refused.has(name);
  }

  run(args: readonly string[], opts: RunOptions = {}): Promise<string> {
    const commands = splitCommands(args);
    return this.routed(commands, opts) ? this.over(commands, () => this.spawned.run(args, opts)) : this.spawned.run(args, opts);
  }

  runSequence(commands: readonly (readonly string[])[], opts: RunOptions = {}): Promise<string> {
    return this.routed(commands, opts) ? this.over(commands, () => this.spawned.runSequence(commands, opts)) : this.spawned.runSequence(commands, opts);
  }

  private routed(commands: readonly (readonly string[])[], opts: RunOptions): boolean {
    return this.connected && opts.path === undefined && opts.signal === undefined && carriedOver(commands);
  }

  private over(commands: readonly (readonly string[])[], fallback: () => Promise<string>): Promise<string> {
    const connection = this.connection!;
    return new Promise<Answer>((resolve) => connection.send(commands, resolve)).then((answer) => {
      if (answer.ok) return answer.output;
      const lost = answer.error.tmuxExitCode === null;
      if (lost && (!answer.sent || commands.every(([name]) => RETRIED.has(name ?? '')))) return fallback();
      throw answer.error;
    });
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let connection: ControlConnection;
    try {
      connection = await ControlConnection.open({ socketPath: this.spawned.socketPath, env: this.spawned.env, session: this.opts.session, tmuxPath: this.spawned.tmuxPath });
    } catch (error) {
      this.lostWith(error instanceof TmuxError ? error.stderr : (error as Error).message);
      return this.retry();
    }
    if (this.stopped) return void connection.close();
    this.connection = connection;
    this.attempt = 0;
    connection.onEvent((event) => {
      // Its session destroyed, tmux may move the client to another (detach-on-destroy off):
      // what it would report then is another session's. Made again, on this one or not at all.
      if (event.kind === 'session-changed' && event.session !== this.opts.session) return void connection.close(`tmux moved it to session ${event.session}`);
      for (const listener of [...this.listeners]) listener(event);
    });
    connection.onClose(({ reason }) => {
      if (this.connection !== connection) return;
      this.connection = null;
      if (this.stopped) return;
      this.lostWith(reason);
      this.retry();
    });
    await Promise.all([...this.subscriptions].map(([name, subscription]) => this.applySubscription(connection, name, subscription)));
    if (this.connection !== connection) return;
    if (this.down !== null) this.opts.log('the tmux control connection is back: tmux commands and events go over it again');
    this.down = null;
    for (const listener of [...this.connectedListeners]) listener();
  }

  private async applySubscription(connection: ControlConnection, name: string, { what, format }: Subscription): Promise<void> {
    try {
      await connection.request([['refresh-client', '-B', `${name}:${what}:${format}`]]);
      this.refused.delete(name);
    } catch (error) {
      if (!connection.isOpen) return;
      const why = error instanceof TmuxError ? error.stderr : (error as Error).message;
      if (!this.refused.has(name)) this.opts.log(`tmux refused the subscription ${name} (${why}): what it reports is read at each reconciliation instead`);
      this.refused.set(name, why);
    }
  }

  /** Says the loss once per outage. */
  private lostWith(reason: string): void {
    if (this.down !== null) return;
    this.down = reason;
    this.opts.log(`the tmux control connection is down (${reason}): each tmux command runs its own tmux client, and changes are seen at each reconciliation, until it is back`);
  }

  private retry(): void {
    if (this.stopped) return;
    const delay = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)]!;
    this.timer = setTimeout(() => void this.connect(), delay);
    this.timer.unref();
  }
}
