// Stopping tasks: SIGTERM to each pane's process group, SIGKILL to what is left after 2 s,
// and return only once tmux reports every pane dead: a reply says what tmux did, not what it may do.
// A signal goes only to the pid tmux reports for that very pane id just before sending it,
// and only when it is the pid the listing showed: a pane that died or respawned in between
// (its old pid possibly reused by an unrelated process) is left to the next round.
import { setImmediate } from 'node:timers/promises';
import { treeProcess } from '../../ownership/index.js';
import type { Followed } from '../supervisor/task-record.js';
import type { FleetTmux, PaneInfo } from '../tmux/tmux-port.js';

const TERM_GRACE_MS = 2_000;
const KILL_DEADLINE_MS = 10_000;
/**
 * Signals sent before the event loop gets a turn. The kernel runs a signalled process's exit at
 * once, on the core the supervisor wants: 200 kills in a row held the control socket for 150 ms
 * (an `ls` during a `down` waited that long); 16 hold it a few ms.
 */
const SIGNALS_PER_TURN = 16;

/** Sends a signal to a pane's process group; tests pass a recorder. */
export type SendSignal = (pid: number, sig: NodeJS.Signals) => void;

/** Returns the panes still alive after the SIGKILL deadline (none, normally). */
export async function stopProcessGroups(tmux: FleetTmux, paneIds: readonly string[], send: SendSignal = signalGroup): Promise<string[]> {
  if (paneIds.length === 0) return [];
  const wanted = new Set(paneIds);
  const alive = async () => (await tmux.listPanes()).filter((p) => wanted.has(p.paneId) && !p.dead);
  await signal(tmux, await alive(), 'SIGTERM', send);
  const termDeadline = Date.now() + TERM_GRACE_MS;
  let left = await alive();
  while (left.length > 0 && Date.now() < termDeadline) {
    await pause(50);
    left = await alive();
  }
  if (left.length === 0) return [];
  await signal(tmux, left, 'SIGKILL', send);
  const killDeadline = Date.now() + KILL_DEADLINE_MS;
  while ((left = await alive()).length > 0 && Date.now() < killDeadline) await pause(50);
  return left.map((p) => p.paneId);
}

async function signal(tmux: FleetTmux, panes: readonly PaneInfo[], sig: NodeJS.Signals, send: SendSignal): Promise<void> {
  if (panes.length === 0) return;
  const live = await tmux.livePanePids(panes.map((p) => p.paneId));
  let sent = 0;
  for (const pane of panes) {
    const pid = live.get(pane.paneId);
    if (pid === undefined || pid !== pane.pid || pid <= 1) continue;
    send(pid, sig);
    if (++sent % SIGNALS_PER_TURN === 0) await setImmediate(); // requests that came meanwhile (an `ls`) are answered
  }
}

/**
 * Stops adopted agents that run under a shell the task does not own: SIGTERM to each (to its
 * job's process group when it leads one, as an interactive shell makes it), SIGKILL to those
 * left after 2 s. A signal goes only while the pid still names that process (its start tick).
 * Returns those still running after the SIGKILL deadline.
 */
export async function stopFollowed(proc: string, followed: readonly Pick<Followed, 'pid' | 'start'>[], send: SendSignal = signalOne): Promise<number[]> {
  if (followed.length === 0) return [];
  const running = () => followed.filter((f) => {
    const entry = treeProcess(proc, f.pid);
    return entry !== null && entry.start === f.start && entry.state !== 'Z' && entry.state !== 'X';
  });
  const signalAll = (sig: NodeJS.Signals) => {
    for (const f of running()) send(treeProcess(proc, f.pid)?.pgid === f.pid ? -f.pid : f.pid, sig);
  };
  signalAll('SIGTERM');
  const termDeadline = Date.now() + TERM_GRACE_MS;
  while (running().length > 0 && Date.now() < termDeadline) await pause(50);
  if (running().length === 0) return [];
  signalAll('SIGKILL');
  const killDeadline = Date.now() + KILL_DEADLINE_MS;
  while (running().length > 0 && Date.now() < killDeadline) await pause(50);
  return running().map((f) => f.pid);
}

function signalOne(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function signalGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig); // tmux starts each pane's process as a session and group leader
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
