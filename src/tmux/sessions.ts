// Sessions, the server, and one-off format queries.
import { TmuxError } from './errors.js';
import { escapeFormat, formatQuery } from './format.js';
import type { TmuxRun } from './runner.js';
import type { SpawnSpec } from './windows.js';

export interface NewSessionSpec extends SpawnSpec {
  /** Session name (tmux turns `.` and `:` into `_`). */
  name: string;
  /** Window size of the detached session (default: tmux's 80x24). */
  width?: number;
  height?: number;
}

const SESSION_FIELDS = ['session_name', 'session_id'] as const;

/**
 * `new-session -d` (always detached; attach with TmuxRunner.interactive(['attach-session', '-t',
 * id])). Starts the server when none runs: the server then takes its global environment
 * (PATH included) from this tmux process. Returns the session id (`$N`).
 */
export async function newSession(tmux: TmuxRun, spec: NewSessionSpec): Promise<string> {
  const size = [
    ...(spec.width !== undefined ? ['-x', String(spec.width)] : []),
    ...(spec.height !== undefined ? ['-y', String(spec.height)] : []),
  ];
  const env = Object.entries(spec.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const query = formatQuery(['session_id'] as const);
  const out = await tmux.runSequence(
    [['new-session', '-d', '-P', '-F', query.format, '-s', spec.name, '-c', escapeFormat(spec.cwd), ...size, ...env, '--', ...spec.argv]],
    { path: spec.path },
  );
  return query.parseOne(out).session_id;
}

/** The id of the session with exactly this name, or null (also when no server runs). */
export async function sessionId(tmux: TmuxRun, name: string): Promise<string | null> {
  const query = formatQuery(SESSION_FIELDS);
  let out: string;
  try {
    out = await tmux.runSequence([['list-sessions', '-F', query.format]]);
  } catch (e) {
    if (e instanceof TmuxError && e.noServer) return null;
    throw e;
  }
  return query.parse(out).find((s) => s.session_name === name)?.session_id ?? null;
}

export async function hasSession(tmux: TmuxRun, name: string): Promise<boolean> {
  return (await sessionId(tmux, name)) !== null;
}

/** `display-message -p -t <target> <format>`: `format` is expanded for that target. */
export async function displayMessage(tmux: TmuxRun, target: string, format: string): Promise<string> {
  return tmux.runSequence([['display-message', '-p', '-t', target, format]]);
}

/** Kills the server the runner talks to; no server running is not an error. */
export async function killServer(tmux: TmuxRun): Promise<void> {
  try {
    await tmux.runSequence([['kill-server']]);
  } catch (e) {
    if (!(e instanceof TmuxError && e.noServer)) throw e;
  }
}
