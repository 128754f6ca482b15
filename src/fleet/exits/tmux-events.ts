// What tmux's notifications change, each run on the supervisor's queue like every other change:
// a window closed outside fleetcom, and a pane's title (codex's approval prompt, gemini's
// states), seen when tmux says so instead of at the next reconciliation (which still runs, less
// often, for what no event covers: a task window moved to another session, idleness).
import type { FleetState } from '../supervisor/fleet-state.js';
import { isOver } from '../tmux/tmux-port.js';
import { recordExit, windowGone } from './reconcile.js';

/** A task pane's title changed (tmux's `#{pane_title}` subscription). */
export async function titleChanged(fleet: FleetState, paneId: string, title: string): Promise<void> {
  const task = fleet.tasks.byPane(paneId);
  if (!task || task.endedAt !== null) return;
  await fleet.applyAttention(fleet.attention.titleSeen(task, title));
}

/**
 * tmux closed these windows in a session (or unlinked them from one). Each task's pane is read
 * by its id, on the whole server: gone, the window was closed outside fleetcom; still there, it
 * was only moved to another session. A read tmux does not answer is left to the reconciliation.
 */
export async function windowsClosed(fleet: FleetState, windowIds: ReadonlySet<string>): Promise<void> {
  for (const task of fleet.tasks.values()) {
    if (task.windowId === '' || !windowIds.has(task.windowId)) continue;
    const read = await fleet.deps.tmux.endedPane(task.paneId).catch(() => undefined);
    if (read === null) windowGone(fleet, task);
    else if (read !== undefined && isOver(read.pane) && task.endedAt === null) await recordExit(fleet, task, read.pane, read.text);
  }
}
