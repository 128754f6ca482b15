// A host's task as its own tmux shows it: attached to from a local window over ssh
// (`ssh -t HOST tmux -S SOCKET attach-session -t @N`), its window selected there, its screen
// captured. The ids and the socket come from the host's `ls --json`, so they are input: each is
// checked for its tmux shape before it goes into a command, and every word is quoted for the
// host's shell (remote-words.ts) like fleetcom's own.
import { quoteShell } from '../harness/quote.js';
import { callHostLine, masterOptions, sshArgv, type HostLink } from './host-link.js';
import { describeFailure } from './outcome.js';

/** A task of a host, as much of it as reaching its window needs. */
export interface RemoteTarget {
  host: string;
  id: number;
  windowId: string;
  paneId: string;
  /** The socket of the host's tmux server; null: the host's default server. */
  tmuxSocket: string | null;
}

const WINDOW_ID = /^@\d{1,9}$/;
const PANE_ID = /^%\d{1,9}$/;
const MAX_PATH = 4096;

/** Why the host's record cannot name a window to reach, or null when it can. */
export function targetProblem(t: Pick<RemoteTarget, 'windowId' | 'paneId' | 'tmuxSocket'>): string | null {
  if (!WINDOW_ID.test(t.windowId)) return `its window id ${JSON.stringify(t.windowId)} is not a tmux window id`;
  if (!PANE_ID.test(t.paneId)) return `its pane id ${JSON.stringify(t.paneId)} is not a tmux pane id`;
  const socket = t.tmuxSocket;
  if (socket !== null && (!socket.startsWith('/') || socket.length > MAX_PATH || /\p{Cc}/u.test(socket))) {
    return `its tmux socket ${JSON.stringify(socket.slice(0, 200))} is not an absolute path`;
  }
  return null;
}

/** `tmux [-S socket] <args>` as the host's shell should run it: one quoted line. */
export function remoteTmuxLine(socket: string | null, args: readonly string[]): string {
  return ['tmux', ...(socket === null ? [] : ['-S', socket]), ...args].map(quoteShell).join(' ');
}

/**
 * The argv of a local window attached to the target's window: the user's ssh with the host's
 * master (interactive: prompts reach that window's terminal), a terminal for tmux (-t), and
 * the host's tmux attaching to the session that holds the window, which selects it there.
 */
export function attachArgv(link: HostLink, target: RemoteTarget): string[] {
  return [
    ...sshArgv(link, target.host, [...masterOptions(false), '-t']), '--', target.host,
    remoteTmuxLine(target.tmuxSocket, ['attach-session', '-t', target.windowId]),
  ];
}

/** Runs the host's tmux with `args` under a deadline; its stdout, or an Error with ssh's or tmux's reason. */
export async function runRemoteTmux(link: HostLink, target: RemoteTarget, args: readonly string[], deadlineMs: number): Promise<string> {
  const problem = targetProblem(target);
  if (problem !== null) throw new Error(`host ${target.host}: task ${target.id}: ${problem}`);
  const { run, failure } = await callHostLine(link, target.host, remoteTmuxLine(target.tmuxSocket, args), 'tmux', { deadlineMs, batch: true });
  if (failure !== null) {
    throw new Error(failure.kind === 'no-fleetcom' ? `host ${target.host}: tmux was not found there` : describeFailure(failure));
  }
  if (run.code !== 0) throw new Error(`host ${target.host}: tmux: ${run.stderr.trim() || `exit ${run.code}`}`);
  return run.stdout;
}

/**
 * Lines kept above the screen: a finished pane's `Pane is dead` line scrolls its last output up
 * there (measured, tmux 3.3a), as a pane made smaller does.
 */
export const PEEK_HISTORY_LINES = 30;

/** The target's screen as it is now, with the lines just above it (no escape sequences). */
export function captureRemotePane(link: HostLink, target: RemoteTarget, deadlineMs: number): Promise<string> {
  return runRemoteTmux(link, target, ['capture-pane', '-p', '-S', `-${PEEK_HISTORY_LINES}`, '-t', target.paneId], deadlineMs);
}

/** Makes the target's window the current one of its session there (what an attached client shows). */
export async function selectRemoteWindow(link: HostLink, target: RemoteTarget, deadlineMs: number): Promise<void> {
  await runRemoteTmux(link, target, ['select-window', '-t', target.windowId], deadlineMs);
}
