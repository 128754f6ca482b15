// One tmux control-mode client (`tmux -C attach-session`) over plain pipes: commands go in as
// lines, their output and tmux's notifications come back on one stream (parser.ts). Beside
// runner.ts, the only other place that spawns tmux.
//
// Each request is its command line followed by a line of its own, `display-message -p <marker>`
// with a fresh random marker: tmux runs a client's lines in order, skips the rest of a line at
// its first failing command (so the marker gets a line of its own) and answers each command
// with a block. A request is answered only when its marker's block comes, exactly, after at
// most one block per command: output that ended a block early (a program printing a guard
// line on its screen, read back by capture-pane) cannot produce the marker, and the stream's
// own checks (parser.ts) stop it first. Anything out of place closes the connection.
//
// The client attaches with `-E` (the session's environment is not updated from ours) and
// `-f no-output` (no pane's output is sent until a pane is watched); it never sends
// `refresh-client -C`, so it has no size and tmux sizes no window by it. Its TERM is
// CONTROL_TERM, so every fleetcom's control client can be told from a person's
// (`#{client_termname}`, clients.ts).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { TmuxError } from '../errors.js';
import type { Env } from '../runner.js';
import { ControlParser, type ControlEvent } from './parser.js';
import { commandLine } from './quote.js';

/** `#{client_termname}` of fleetcom's control clients: what list-clients readers leave out. */
export const CONTROL_TERM = 'fleetcom-control';

/** How long `open` waits for tmux to attach the client. */
export const OPEN_DEADLINE_MS = 5_000;

export interface ConnectionOptions {
  socketPath?: string;
  configFile?: string;
  env: Env;
  tmuxPath?: string;
  /** The session to attach to (its id, `$N`). */
  session: string;
}

export type Answer = { ok: true; output: string } | { ok: false; error: TmuxError; sent: boolean };

interface Request {
  names: string;
  commands: number;
  marker: string;
  blocks: number;
  output: string[];
  failure: string | null;
  done: (answer: Answer) => void;
}

/** Why a connection closed (once). */
export interface Closed {
  reason: string;
}

export class ControlConnection {
  private readonly parser = new ControlParser();
  private readonly inFlight: Request[] = [];
  private readonly listeners = new Set<(event: ControlEvent) => void>();
  private readonly closeListeners = new Set<(closed: Closed) => void>();
  private closed: Closed | null = null;
  private stderr = '';

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {}

  /** Spawns the client and resolves once tmux has attached it; rejects with tmux's reason. */
  static open(opts: ConnectionOptions): Promise<ControlConnection> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) env[k] = v;
    env.TERM = CONTROL_TERM;
    const flags = [...(opts.configFile === undefined ? [] : ['-f', opts.configFile]), ...(opts.socketPath === undefined ? [] : ['-S', opts.socketPath])];
    const child = spawn(opts.tmuxPath ?? 'tmux', ['-u', ...flags, '-C', 'attach-session', '-E', '-f', 'no-output', '-t', opts.session], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = new ControlConnection(child);
    return connection.attach();
  }

  /** The client process's pid (what `#{client_pid}` names). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get isOpen(): boolean {
    return this.closed === null;
  }

  /** Every notification and every block tmux ran for this client itself, in stream order. */
  onEvent(listener: (event: ControlEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onClose(listener: (closed: Closed) => void): () => void {
    if (this.closed !== null) listener(this.closed);
    else this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /**
   * Sends commands as one line; `done` is called in stream order, before any event that came
   * after the answer (a watch relies on it: a screen captured here, then the output after it).
   */
  send(commands: readonly (readonly string[])[], done: (answer: Answer) => void): void {
    const names = commands.map((c) => c[0] ?? '').join('; ');
    if (this.closed !== null) {
      done({ ok: false, error: lost(names, this.closed.reason), sent: false });
      return;
    }
    const marker = `fleetcom-${randomBytes(9).toString('hex')}`;
    let text: string;
    try {
      text = `${commandLine(commands)}\n${commandLine([['display-message', '-p', marker]])}\n`;
    } catch (error) {
      done({ ok: false, error: new TmuxError(names, (error as Error).message, null), sent: false });
      return;
    }
    this.inFlight.push({ names, commands: commands.length, marker, blocks: 0, output: [], failure: null, done });
    this.child.stdin.write(text);
  }

  request(commands: readonly (readonly string[])[]): Promise<string> {
    return new Promise((resolve, reject) => this.send(commands, (answer) => (answer.ok ? resolve(answer.output) : reject(answer.error))));
  }

  /** Detaches: tmux ends the client when its input ends; killed if it has not within a second. */
  close(reason = 'closed by fleetcom'): Promise<void> {
    if (this.closed === null) this.finish(reason);
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 1_000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private attach(): Promise<ControlConnection> {
    const { child } = this;
    return new Promise((resolve, reject) => {
      let attached = false;
      const fail = (why: string) => {
        if (attached) return;
        attached = true;
        clearTimeout(timer);
        this.finish(why);
        child.kill('SIGKILL');
        reject(new TmuxError('attach-session -C', why, null));
      };
      const timer = setTimeout(() => fail(`tmux did not attach the control client within ${OPEN_DEADLINE_MS / 1000} s`), OPEN_DEADLINE_MS);
      // Until the client is attached, tmux answers nothing it is sent ("no current client"):
      // the attach's own block, then %session-changed, say it is.
      // The first block is the attach's own (a client-attached hook's may follow it).
      let first = true;
      const opening = (event: ControlEvent) => {
        if (event.kind === 'block' && first) {
          first = false;
          if (!event.ok) fail(event.lines.join(' ') || 'attach-session failed');
        }
        if (event.kind === 'exit') fail(event.reason ?? 'the control client exited');
        else if (event.kind === 'session-changed' && !attached) {
          attached = true;
          clearTimeout(timer);
          this.listeners.delete(opening);
          resolve(this);
        }
      };
      this.listeners.add(opening);
      child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        if (this.stderr.length < 4096) this.stderr += text;
      });
      child.stdin.on('error', () => undefined); // EPIPE once tmux is gone: the close says why
      child.on('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? 'tmux not found' : error.message));
      child.on('close', (code, signal) => {
        const why = this.stderr.trim() || (signal !== null ? `the control client was killed (${signal})` : `the control client exited (${code})`);
        fail(why);
        this.finish(why);
      });
    });
  }

  private read(chunk: Buffer): void {
    for (const event of this.parser.push(chunk)) {
      if (this.closed !== null) return;
      if (event.kind === 'desync') {
        this.finish(`tmux's control stream made no sense (${event.why})`);
        this.child.kill('SIGKILL');
        return;
      }
      if (event.kind === 'block' && event.fromClient) this.answer(event);
      else this.emit(event);
      if (event.kind === 'exit') this.finish(`tmux ended the control client${event.reason ? `: ${event.reason}` : ''}`);
    }
  }

  private answer(block: Extract<ControlEvent, { kind: 'block' }>): void {
    const request = this.inFlight[0];
    if (request === undefined) return this.broken('an answer to a command nobody sent');
    if (block.ok && block.lines.length === 1 && block.lines[0] === request.marker) {
      this.inFlight.shift();
      const output = chomp(request.output.join(''));
      request.done(request.failure === null ? { ok: true, output } : { ok: false, error: new TmuxError(request.names, request.failure, 1, output), sent: true });
      return;
    }
    // tmux skips a line's commands after the first that fails: no block may follow an error.
    if (request.failure !== null || ++request.blocks > request.commands) return this.broken(`more answers than commands for ${request.names}`);
    if (block.ok) request.output.push(...block.lines.map((line) => `${line}\n`));
    else request.failure = block.lines.join('\n');
  }

  private broken(why: string): void {
    this.finish(`lost its place in tmux's answers (${why})`);
    this.child.kill('SIGKILL');
  }

  private emit(event: ControlEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  private finish(reason: string): void {
    if (this.closed !== null) return;
    this.closed = { reason };
    this.child.stdin.end();
    for (const request of this.inFlight.splice(0)) request.done({ ok: false, error: lost(request.names, reason), sent: true });
    for (const listener of [...this.closeListeners]) listener(this.closed);
    this.closeListeners.clear();
  }
}

/** A request the connection cannot answer (closed before, or before tmux answered). */
function lost(names: string, reason: string): TmuxError {
  return new TmuxError(names, `the tmux control connection closed before tmux answered: ${reason}`, null);
}

/** One final line end dropped, as the spawned runner does (runner.ts). */
function chomp(text: string): string {
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}
