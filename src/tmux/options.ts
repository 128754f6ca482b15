// Options (window, session, server), hooks and key bindings.
import { TmuxError } from './errors.js';
import { runQueries, type Query } from './queries.js';
import type { TmuxRun } from './runner.js';
import { runBatched } from './windows.js';

export async function setWindowOption(tmux: TmuxRun, target: string, name: string, value: string): Promise<void> {
  await tmux.runSequence([['set-option', '-w', '-t', target, name, value]]);
}

/** Several window options in as few tmux calls as fit; a window that is gone is skipped. */
export async function setWindowOptions(tmux: TmuxRun, options: ReadonlyArray<readonly [target: string, name: string, value: string]>): Promise<void> {
  await runBatched(tmux, options.map(([target, name, value]) => ['set-option', '-w', '-t', target, name, value]));
}

export async function unsetWindowOption(tmux: TmuxRun, target: string, name: string): Promise<void> {
  await tmux.runSequence([['set-option', '-w', '-u', '-t', target, name]]);
}

/** The window's own value of an option: '' when it has none (only a global value applies). */
export async function showLocalWindowOption(tmux: TmuxRun, target: string, name: string): Promise<string> {
  return (await tmux.runSequence([['show-options', '-w', '-q', '-v', '-t', target, name]])).replace(/\n$/, '');
}

/**
 * Every window's value of the user option `name` on the server, by window id, for values made
 * of `valueChars` only (a class without space or newline). Values come back one per line, so a
 * value holding a newline could pose as another window's line: a line of any other shape, and
 * a window that appears twice, are left out.
 */
export async function windowOptionValues(tmux: TmuxRun, name: string, valueChars: RegExp): Promise<Map<string, string>> {
  const query = windowOptionQuery(name, valueChars);
  return query.parse(await tmux.runSequence([query.command]));
}

/** windowOptionValues' read, to run with other queries (runQueries). */
export function windowOptionQuery(name: string, valueChars: RegExp): Query<Map<string, string>> {
  return { command: ['list-windows', '-a', '-F', `#{window_id} #{${name}}`], parse: (out) => windowValues(out, valueChars) };
}

function windowValues(out: string, valueChars: RegExp): Map<string, string> {
  const seen = new Map<string, string | null>();
  for (const line of out.split('\n')) {
    const m = /^(@\d+) (.*)$/.exec(line);
    if (m === null) continue;
    const [, window = '', value = ''] = m;
    seen.set(window, seen.has(window) || !valueChars.test(value) ? null : value);
  }
  const values = new Map<string, string>();
  for (const [window, value] of seen) if (value) values.set(window, value);
  return values;
}

export async function setSessionOption(tmux: TmuxRun, session: string, name: string, value: string): Promise<void> {
  await tmux.runSequence([['set-option', '-t', session, name, value]]);
}

/** Server-wide option, e.g. a user option `@fleetcom-prev-r`. */
export async function setServerOption(tmux: TmuxRun, name: string, value: string): Promise<void> {
  await tmux.runSequence([['set-option', '-s', name, value]]);
}

export async function unsetServerOption(tmux: TmuxRun, name: string): Promise<void> {
  await tmux.runSequence([['set-option', '-s', '-u', name]]);
}

/**
 * showServerOption's read, to run with other queries (runQueries): `-q` makes an unset option
 * print nothing (no error), while a set one prints its value and a newline, even when empty.
 */
export function serverOptionQuery(name: string): Query<string | null> {
  return { command: ['show-options', '-s', '-q', '-v', name], parse: (out) => (out === '' ? null : out.replace(/\n$/, '')) };
}

/** The server option's value, or null when it is not set (`''` when set to empty). */
export async function showServerOption(tmux: TmuxRun, name: string): Promise<string | null> {
  const [value] = await runQueries(tmux, [serverOptionQuery(name)]);
  return value;
}

/**
 * `set-hook -t <session> <hook> <command>` for SESSION hooks (after-new-window, session-closed…):
 * `command` is ONE tmux command string (tmux parses it; `a ; b` is a sequence) and runs in the
 * tmux SERVER's environment, expanding formats only where the command itself does (run-shell
 * does). Pane hooks such as pane-died are window options in tmux 3.3a: given a session here
 * they land on its current window only — use setWindowHook / newWindow's windowHooks.
 */
export async function setHook(tmux: TmuxRun, session: string, hook: string, command: string): Promise<void> {
  await tmux.runSequence([['set-hook', '-t', session, hook, command]]);
}

export async function unsetHook(tmux: TmuxRun, session: string, hook: string): Promise<void> {
  await tmux.runSequence([['set-hook', '-u', '-t', session, hook]]);
}

/** `set-hook -w -t <window> <hook> <command>`: a hook of one window (pane-died, pane-exited…). */
export async function setWindowHook(tmux: TmuxRun, window: string, hook: string, command: string): Promise<void> {
  await tmux.runSequence([['set-hook', '-w', '-t', window, hook, command]]);
}

export async function unsetWindowHook(tmux: TmuxRun, window: string, hook: string): Promise<void> {
  await tmux.runSequence([['set-hook', '-w', '-u', '-t', window, hook]]);
}

/** `bind-key -T <table> <key> <command>`; `command` is one tmux command string, as for setHook. */
export async function bindKey(tmux: TmuxRun, table: string, key: string, command: string): Promise<void> {
  await tmux.runSequence([['bind-key', '-T', table, key, command]]);
}

/** Removes the binding; a key that is not bound is not an error. */
export async function unbindKey(tmux: TmuxRun, table: string, key: string): Promise<void> {
  try {
    await tmux.runSequence([['unbind-key', '-T', table, key]]);
  } catch (e) {
    if (!(e instanceof TmuxError && /unknown key|doesn't exist/.test(e.stderr))) throw e;
  }
}

/**
 * Pure: the command of a `list-keys -T <table> <key>` line
 * (`bind-key [-r] -T prefix r refresh-client` → `refresh-client`), or null. The text is in
 * tmux's command syntax, so bindKey(table, key, it) restores the binding as it was (without -r).
 */
export function parseListKey(output: string): string | null {
  const line = output.split('\n').find((l) => l.startsWith('bind-key'));
  return line === undefined ? null : BINDING_LINE.exec(line)?.[2] ?? null;
}

/** A `list-keys` line (padded or not, tmux escapes a newline in the command): its key, its command. */
const BINDING_LINE = /^bind-key\s+(?:-r\s+)?(?:-N\s+"(?:[^"\\]|\\.)*"\s+)?-T\s+\S+\s+(\S+)\s+(.*)$/;

/**
 * listKey for every key of a table at once (`list-keys -T <table>`, which, unlike the query of
 * one key, does not fail for a key that is not bound), to run with other queries: command by
 * key name as tmux prints it (`C-x` for `c-x`, `\#` for `#`).
 */
export function keyTableQuery(table: string): Query<Map<string, string>> {
  return {
    command: ['list-keys', '-T', table],
    parse: (out) => {
      const bindings = new Map<string, string>();
      for (const line of out.split('\n')) {
        const m = BINDING_LINE.exec(line);
        if (m) bindings.set(m[1] ?? '', m[2] ?? '');
      }
      return bindings;
    },
  };
}

/** The command the key runs now, or null when unbound. tmux 3.3 has no format for this. */
export async function listKey(tmux: TmuxRun, table: string, key: string): Promise<string | null> {
  try {
    return parseListKey(await tmux.runSequence([['list-keys', '-T', table, key]]));
  } catch (e) {
    if (e instanceof TmuxError && /unknown key|doesn't exist/.test(e.stderr)) return null;
    throw e;
  }
}

/**
 * Pure: parses `show-environment -g -s` (`NAME="v"; export NAME;` with `\` escapes, values may
 * span lines; `unset NAME;` for removed variables, which are left out).
 */
export function parseEnvironment(output: string): Record<string, string> {
  const env: Record<string, string> = {};
  const set = /([^=\s]+)="((?:[^"\\]|\\[\s\S])*)"; export [^;\n]+;\n?/y;
  const unset = /unset [^;\n]+;\n?/y;
  let at = 0;
  while (at < output.length) {
    set.lastIndex = at;
    unset.lastIndex = at;
    const m = set.exec(output);
    if (m) {
      env[m[1] ?? ''] = (m[2] ?? '').replace(/\\([\s\S])/g, '$1');
      at = set.lastIndex;
    } else if (unset.exec(output)) {
      at = unset.lastIndex;
    } else {
      throw new Error(`cannot parse tmux environment near: ${JSON.stringify(output.slice(at, at + 40))}`);
    }
  }
  return env;
}

/** showGlobalEnvironment's read, to run with other queries (runQueries); null when it does not parse. */
export function globalEnvironmentQuery(): Query<Record<string, string> | null> {
  return {
    command: ['show-environment', '-g', '-s'],
    parse: (out) => {
      try {
        return parseEnvironment(out);
      } catch {
        return null; // read again where it is used, which reports why
      }
    },
  };
}

/** tmux's global environment (the base of every new pane's environment). */
export async function showGlobalEnvironment(tmux: TmuxRun): Promise<Record<string, string>> {
  return parseEnvironment(await tmux.runSequence([['show-environment', '-g', '-s']]));
}
