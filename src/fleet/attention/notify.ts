// The terminal bell in the task's own window when it comes to need the user, at once (tmux's
// monitor-bell / bell-action then decide what the user sees or hears; the window's mark is
// only a mark). Alerts that reach the user elsewhere go through the rules: alerts.ts.
import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import type { AttentionChange } from './attention.js';
import { labelOf } from '../supervisor/task.js';

export interface NotifyOptions {
  /** Ring the bell in the task's window (default on). */
  bell: boolean;
}

export interface NotifyDeps {
  /** `#{pane_tty}` of a pane, as tmux reports it. */
  paneTty: (paneId: string) => Promise<string>;
  log: (line: string) => void;
}

const PTY = /^\/dev\/pts\/[0-9]+$/;

/** The sentence shown and sent for a task that needs the user. */
export function attentionText(change: Pick<AttentionChange, 'task' | 'state'>): string {
  if (change.state.message) return change.state.message;
  const label = labelOf(change.task);
  return change.state.attention === 'permission' ? `${label} needs your permission` : `${label} is waiting for you`;
}

export function notifier(opts: NotifyOptions, deps: NotifyDeps): (change: AttentionChange) => void {
  return (change) => {
    if (!change.notify) return;
    if (opts.bell) void ringBell(change.task.paneId, deps);
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
