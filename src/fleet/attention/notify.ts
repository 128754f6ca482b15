// Telling the user that a task needs them: the terminal bell in the task's own window (tmux's
// monitor-bell / bell-action then decide what the user sees or hears) and an optional command
// of the user's. The command string is the user's, run as written by /bin/sh; what the agent
// said reaches it only through environment variables, never spliced into a shell string.
import { spawn } from 'node:child_process';
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import type { AttentionChange } from './attention.js';
import { labelOf } from '../supervisor/task.js';

export interface NotifyOptions {
  /** Ring the bell in the task's window (default on). */
  bell: boolean;
  /** The user's `--notify-command`, or null. */
  command: string | null;
  /** The supervisor's environment, which the command inherits. */
  env: Record<string, string>;
}

export interface NotifyDeps {
  /** `#{pane_tty}` of a pane, as tmux reports it. */
  paneTty: (paneId: string) => Promise<string>;
  log: (line: string) => void;
}

/** A command still running after this long is stopped (its process group): it cannot pile up. */
const COMMAND_TIMEOUT_MS = 60_000;
const PTY = /^\/dev\/pts\/[0-9]+$/;

/** The sentence shown and sent for a task that needs the user. */
export function attentionText(change: Pick<AttentionChange, 'task' | 'state'>): string {
  if (change.state.message) return change.state.message;
  const label = labelOf(change.task);
  return change.state.attention === 'permission' ? `${label} needs your permission` : `${label} is waiting for you`;
}

/** The environment of the notify command: the supervisor's plus what happened, by name. */
export function notifyEnv(base: Record<string, string>, change: AttentionChange): Record<string, string> {
  return {
    ...base,
    FLEETCOM_TASK_ID: String(change.task.id),
    FLEETCOM_TASK_LABEL: labelOf(change.task),
    FLEETCOM_ATTENTION: change.state.attention ?? '',
    FLEETCOM_MESSAGE: attentionText(change),
    FLEETCOM_WINDOW_ID: change.task.windowId,
    FLEETCOM_PANE_ID: change.task.paneId,
  };
}

export function notifier(opts: NotifyOptions, deps: NotifyDeps): (change: AttentionChange) => void {
  return (change) => {
    if (!change.notify) return;
    if (opts.bell) void ringBell(change.task.paneId, deps);
    if (opts.command !== null) runCommand(opts.command, notifyEnv(opts.env, change), deps.log);
  };
}

/**
 * A BEL written to the pane's terminal reaches tmux as the pane's own output, so tmux marks
 * that window's bell and acts on it as configured. The tty must be a pts device (a value read
 * back from tmux is checked before it is opened); non-blocking, so a stuck pane never stalls
 * the supervisor.
 */
async function ringBell(paneId: string, deps: NotifyDeps): Promise<void> {
  let tty: string;
  try {
    tty = (await deps.paneTty(paneId)).trim();
  } catch (error) {
    deps.log(`bell: no tty for pane ${paneId} (${(error as Error).message})`);
    return;
  }
  if (!PTY.test(tty)) {
    deps.log(`bell: pane ${paneId} reports tty ${JSON.stringify(tty)}, not a /dev/pts device; no bell`);
    return;
  }
  let fd: number | null = null;
  try {
    fd = openSync(tty, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isCharacterDevice()) throw new Error('not a character device');
    writeSync(fd, '\x07');
  } catch (error) {
    deps.log(`bell: ${tty}: ${(error as Error).message}`);
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function runCommand(command: string, env: Record<string, string>, log: (line: string) => void): void {
  let child;
  try {
    child = spawn('/bin/sh', ['-c', command], { env, stdio: 'ignore', detached: true });
  } catch (error) {
    log(`notify command: ${(error as Error).message}`);
    return;
  }
  const timer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, COMMAND_TIMEOUT_MS);
  timer.unref();
  child.on('error', (error) => log(`notify command: ${error.message}`));
  child.on('exit', (code, signal) => {
    clearTimeout(timer);
    if (code !== 0) log(`notify command ended with ${signal ?? `status ${code}`}`);
  });
  child.unref();
}
