// The only place in fleetcom that spawns tmux. Every call is an argv array handed to
// child_process.spawn (never a shell string). Not execa: importing it cost ~70 ms of every
// start of `fleetcom up` and it took ~1.5 ms more CPU per tmux call (npm run bench). See
// ./index.ts for the public API overview.
import { spawn } from 'node:child_process';
import { TmuxError, TmuxMissingError } from './errors.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface TmuxRunnerOptions {
  /** `-S socketPath` on every call; without it tmux finds the server from `$TMUX` in `env`. */
  socketPath?: string;
  /** Environment of every tmux process (default: process.env). A new server inherits it. */
  env?: Env;
  /** `-f file` on every call (only matters when a call starts the server; tests: /dev/null). */
  configFile?: string;
  /** The tmux executable (default `tmux`, looked up on env.PATH). */
  tmuxPath?: string;
}

export interface RunOptions {
  /**
   * PATH of this tmux process. tmux 3.3a gives a new window/pane the PATH of the tmux client
   * process that asked for it and ignores `-e PATH=…`, so spawns pass the caller's PATH here.
   */
  path?: string;
  /** Aborting it ends the tmux client (SIGTERM); the call then rejects with a TmuxError. */
  signal?: AbortSignal;
  /** The tmux client's stdin (`load-buffer -`): a text of any size without the 16 KiB command limit. */
  input?: string;
}

/** What operations need from a runner; unit tests of callers can fake just this. */
export interface TmuxRun {
  /** One invocation; an argv element that is exactly `';'` separates commands (`tmux a \; b`). */
  run(args: readonly string[], opts?: RunOptions): Promise<string>;
  /** Several commands in ONE invocation, so tmux runs them back to back with nothing between. */
  runSequence(commands: readonly (readonly string[])[], opts?: RunOptions): Promise<string>;
}

/**
 * tmux (argv mode) reads ANY argument ending in `;` as "end of command" and drops the `;`, and
 * turns a trailing `\;` into `;`. So a literal argument ending in `;` (e.g. `sh -c 'a;'`) is
 * sent with its last `;` written `\;`: `x;` → `x\;`, `x\;` → `x\\;`, `;` → `\;`.
 */
export function escapeArg(arg: string): string {
  return arg.endsWith(';') ? `${arg.slice(0, -1)}\\;` : arg;
}

export class TmuxRunner implements TmuxRun {
  readonly socketPath: string | undefined;
  readonly env: Env;
  private readonly configFile: string | undefined;
  readonly tmuxPath: string;

  constructor(options: TmuxRunnerOptions = {}) {
    this.socketPath = options.socketPath;
    this.env = options.env ?? process.env;
    this.configFile = options.configFile;
    this.tmuxPath = options.tmuxPath ?? 'tmux';
  }

  run(args: readonly string[], opts: RunOptions = {}): Promise<string> {
    const escaped = args.map((a) => (a === ';' ? a : escapeArg(a)));
    return this.exec(escaped, subcommandsOf(args), opts);
  }

  runSequence(commands: readonly (readonly string[])[], opts: RunOptions = {}): Promise<string> {
    const argv: string[] = [];
    commands.forEach((cmd, i) => {
      if (i > 0) argv.push(';');
      argv.push(...cmd.map(escapeArg));
    });
    const names = commands.map((c) => c[0] ?? '').join('; ');
    return this.exec(argv, names, opts);
  }

  /**
   * Runs tmux on the caller's terminal (e.g. `attach-session`), resolving with tmux's exit
   * status when the client exits or detaches. No `-u`: tmux decides UTF-8 from the locale.
   */
  async interactive(args: readonly string[], opts: RunOptions = {}): Promise<number> {
    const result = await spawnTmux(this.tmuxPath, [...this.globalFlags(), ...args.map(escapeArg)], this.envFor(opts), 'inherit');
    if (result.code === 'ENOENT') throw new TmuxMissingError();
    return result.exitCode ?? 1;
  }

  private async exec(argv: readonly string[], subcommand: string, opts: RunOptions): Promise<string> {
    // -u: without it a client in a non-UTF-8 locale gets every non-ASCII byte (and control
    // characters such as a newline in an option value) replaced by `_` in its output.
    const result = await spawnTmux(this.tmuxPath, ['-u', ...this.globalFlags(), ...argv], this.envFor(opts), 'pipe', opts.signal, opts.input);
    if (result.code === 'ENOENT') throw new TmuxMissingError();
    if (result.exitCode !== 0 || result.code !== null) {
      // Never the argv in a message: it may hold environment values.
      const why = result.stderr !== '' || result.exitCode !== null ? result.stderr : `could not run tmux (${result.code ?? 'unknown error'})`;
      throw new TmuxError(subcommand, why, result.exitCode, result.stdout);
    }
    return result.stdout;
  }

  private globalFlags(): string[] {
    const flags: string[] = [];
    if (this.configFile !== undefined) flags.push('-f', this.configFile);
    if (this.socketPath !== undefined) flags.push('-S', this.socketPath);
    return flags;
  }

  private envFor(opts: RunOptions): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.env)) if (v !== undefined) env[k] = v;
    if (opts.path !== undefined) env.PATH = opts.path;
    return env;
  }
}

function subcommandsOf(args: readonly string[]): string {
  const names: string[] = [];
  let atStart = true;
  for (const a of args) {
    if (a === ';') atStart = true;
    else if (atStart) {
      names.push(a);
      atStart = false;
    }
  }
  return names.join('; ');
}

interface Finished {
  /** tmux's exit status; null when it was killed by a signal or never ran. */
  exitCode: number | null;
  /** The spawn error's code (ENOENT: no tmux on PATH; ABORT_ERR: the signal ended it), else null. */
  code: string | null;
  /** Output with one final newline removed, as tmux's callers expect. */
  stdout: string;
  stderr: string;
}

function spawnTmux(file: string, args: string[], env: Record<string, string>, stdio: 'pipe' | 'inherit', signal?: AbortSignal, input?: string): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env, stdio: stdio === 'inherit' ? 'inherit' : [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], signal });
    // A client that exits before reading it all (a failed command) makes the pipe close early: not an error of ours.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    let code: string | null = null;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      code ??= error.code ?? 'ERROR';
    });
    child.on('close', (exitCode: number | null) => {
      resolve({ exitCode: code === 'ENOENT' ? null : exitCode, code, stdout: chomp(stdout), stderr: chomp(stderr) });
    });
  });
}

function chomp(text: string): string {
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}
