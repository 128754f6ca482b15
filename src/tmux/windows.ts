// Creating, respawning and addressing task windows.
import { TmuxError } from './errors.js';
import { escapeFormat, formatQuery, parseIntOrNull, type FormatQuery } from './format.js';
import { BATCH_BYTES, batches, commandBytes } from './batch.js';
import type { TmuxRun } from './runner.js';

export interface SpawnSpec {
  /** Start directory, exactly (escapeFormat'd here: tmux expands formats in `-c`). */
  cwd: string;
  /** `-e K=V` pairs; tmux adds them to the pane's environment built from the global one. */
  env?: Readonly<Record<string, string>>;
  /**
   * The command. Several words are exec'd directly; ONE word is a shell command tmux runs with
   * its `default-shell -c` — pass `[shell, '-c', string]` to choose the shell. Any argument is
   * safe, including ones ending in `;` (the runner escapes them).
   */
  argv: readonly string[];
  /** PATH the new process gets (tmux 3.3a ignores `-e PATH=…`). Default: the runner's env. */
  path?: string;
}

export interface NewWindowSpec extends SpawnSpec {
  /** Session target, ideally its id (`$3`); the window is appended after the last one. */
  session: string;
  /** Window name, stored exactly (escapeFormat'd: tmux expands `-n`); see escapeStyle for display. */
  name: string;
  /** Window options set in the SAME tmux invocation, before the command can have ended. */
  windowOptions?: Readonly<Record<string, string>>;
  /**
   * Window hooks (`set-hook -w`), set in the same invocation too, e.g. `{ 'pane-died': cmd }`.
   * tmux 3.3a keeps pane-died among window/pane hooks: `set-hook -t <session> pane-died` lands
   * on the session's CURRENT window and never fires for new ones. Each value is one tmux
   * command string, run in the tmux server's environment.
   */
  windowHooks?: Readonly<Record<string, string>>;
}

export interface NewWindowResult {
  windowId: string;
  paneId: string;
  panePid: number | null;
  /** The pane's terminal (`/dev/pts/N`), or null. */
  paneTty: string | null;
}

const NEW_FIELDS = ['window_id', 'pane_id', 'pane_pid', 'pane_tty'] as const;

function envArgs(env: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
}

/**
 * `new-window -d -a -t <session>:{end} …`, then `set-option -w` / `set-hook -w` with the same
 * `-t <session>:{end}`, in ONE tmux command sequence. `-a` after `{end}` puts the new window
 * last, so `{end}` names it in the following commands; tmux runs a client's sequence without
 * handling anything else in between (not even the child's exit), so a command that exits at
 * once (`false`) still finds remain-on-exit, the @ options and its pane-died hook in place.
 * Proven in integration/tmux/new-window.test.ts.
 */
export async function newWindow(tmux: TmuxRun, spec: NewWindowSpec): Promise<NewWindowResult> {
  const query = formatQuery(NEW_FIELDS);
  const out = await tmux.runSequence(newWindowCommands(spec, query), { path: spec.path });
  return toResult(query.parseOne(out));
}

/**
 * Several newWindow in as few tmux invocations as fit: each invocation carries the sequences of
 * consecutive specs with the same PATH, up to BATCH_BYTES of arguments (tmux refuses a client
 * message over 16 KiB). One result per spec, in order: the window, or the error of the
 * invocation that should have made it (tmux stops a sequence at its first failing command; the
 * windows made before it are returned as made).
 */
export async function newWindows(tmux: TmuxRun, specs: readonly NewWindowSpec[]): Promise<Array<NewWindowResult | TmuxError>> {
  const query = formatQuery(NEW_FIELDS);
  const commands = (spec: NewWindowSpec) => newWindowCommands(spec, query);
  const results: Array<NewWindowResult | TmuxError> = [];
  let chunk: NewWindowSpec[] = [];
  let bytes = 0;
  const flush = async () => {
    if (chunk.length === 0) return;
    let out: string;
    let failure: TmuxError | null = null;
    try {
      out = await tmux.runSequence(chunk.flatMap(commands), { path: chunk[0]?.path });
    } catch (error) {
      if (!(error instanceof TmuxError)) throw error;
      failure = error;
      out = error.stdout;
    }
    let made: NewWindowResult[] = [];
    try {
      made = query.parse(out).map(toResult);
    } catch (error) {
      if (failure === null) throw error;
    }
    for (const [i] of chunk.entries()) results.push(made[i] ?? failure ?? new TmuxError('new-window', 'printed no window', null));
    chunk = [];
    bytes = 0;
  };
  for (const spec of specs) {
    const size = commandBytes(commands(spec));
    if (chunk.length > 0 && (bytes + size > BATCH_BYTES || spec.path !== chunk[0]?.path)) await flush();
    chunk.push(spec);
    bytes += size;
  }
  await flush();
  return results;
}

function newWindowCommands(spec: NewWindowSpec, query: FormatQuery<typeof NEW_FIELDS>): string[][] {
  const target = `${spec.session}:{end}`;
  const create = [
    'new-window', '-d', '-a', '-P', '-F', query.format, '-t', target,
    '-n', escapeFormat(spec.name), '-c', escapeFormat(spec.cwd), ...envArgs(spec.env), '--', ...spec.argv,
  ];
  const options = Object.entries(spec.windowOptions ?? {}).map(([k, v]) => ['set-option', '-w', '-t', target, k, v]);
  const hooks = Object.entries(spec.windowHooks ?? {}).map(([k, v]) => ['set-hook', '-w', '-t', target, k, v]);
  return [create, ...options, ...hooks];
}

function toResult(r: Record<(typeof NEW_FIELDS)[number], string>): NewWindowResult {
  return { windowId: r.window_id, paneId: r.pane_id, panePid: parseIntOrNull(r.pane_pid), paneTty: r.pane_tty === '' ? null : r.pane_tty };
}

export interface RespawnSpec extends SpawnSpec {
  paneId: string;
  /** Also clear the history in the same invocation, before the new process can print. */
  clearHistory?: boolean;
}

const RESPAWN_FIELDS = ['pane_pid', 'pane_tty'] as const;

/**
 * `respawn-pane -k` (kills a live process first); window options are kept. Returns the new
 * process's pid and terminal, read in the same invocation (tmux has started it by then).
 */
export async function respawnPane(tmux: TmuxRun, spec: RespawnSpec): Promise<{ panePid: number | null; paneTty: string | null }> {
  const respawn = [
    'respawn-pane', '-k', '-t', spec.paneId, '-c', escapeFormat(spec.cwd), ...envArgs(spec.env), '--', ...spec.argv,
  ];
  const clear = spec.clearHistory ? [['clear-history', '-t', spec.paneId]] : [];
  const query = formatQuery(RESPAWN_FIELDS);
  const out = await tmux.runSequence([respawn, ...clear, ['display-message', '-p', '-t', spec.paneId, query.format]], { path: spec.path });
  const read = query.parseOne(out);
  return { panePid: parseIntOrNull(read.pane_pid), paneTty: read.pane_tty === '' ? null : read.pane_tty };
}

export async function killWindow(tmux: TmuxRun, target: string): Promise<void> {
  await tmux.runSequence([['kill-window', '-t', target]]);
}

/** Several kill-window in as few tmux calls as fit (runBatched); a window already gone is skipped. */
export async function killWindows(tmux: TmuxRun, targets: readonly string[]): Promise<void> {
  await runBatched(tmux, targets.map((target) => ['kill-window', '-t', target]));
}

export async function selectWindow(tmux: TmuxRun, target: string): Promise<void> {
  await tmux.runSequence([['select-window', '-t', target]]);
}

/** Shows the window in the given client (switching its session if need be), or selects it. */
export async function showWindow(tmux: TmuxRun, target: string, client: string | null): Promise<void> {
  await tmux.runSequence([client === null ? ['select-window', '-t', target] : ['switch-client', '-c', client, '-t', target]]);
}

/** The name is stored exactly, as for newWindow. */
export async function renameWindow(tmux: TmuxRun, target: string, name: string): Promise<void> {
  await tmux.runSequence([renameCommand(target, name)]);
}

/** `rename-window` with the name kept exactly as given (escapeFormat). */
export function renameCommand(target: string, name: string): string[] {
  return ['rename-window', '-t', target, escapeFormat(name)];
}

/** Several renames in as few tmux calls as fit (runBatched). */
export async function renameWindows(tmux: TmuxRun, renames: ReadonlyArray<readonly [target: string, name: string]>): Promise<void> {
  await runBatched(tmux, renames.map(([target, name]) => renameCommand(target, name)));
}

/**
 * Commands that each stand alone, in as few tmux calls as fit. tmux stops a sequence at its
 * first failure (say a window closed meanwhile), so a failed call is retried one command at a
 * time, failures ignored.
 */
export async function runBatched(tmux: TmuxRun, commands: ReadonlyArray<readonly string[]>): Promise<void> {
  for (const chunk of batches(commands, (cmd) => commandBytes([cmd]))) {
    try {
      await tmux.runSequence(chunk);
    } catch (error) {
      if (!(error instanceof TmuxError)) throw error;
      for (const cmd of chunk) await tmux.runSequence([cmd]).catch(() => undefined);
    }
  }
}
