import { describePlace } from './liveness.js';
import type { ProcessPlace } from './proc.js';

// A running fleetcom task holding a conversation, and telling it apart from any other process.

export interface FleetHolder {
  taskId: number;
  windowId: string;
  paneId: string;
  conversationId: string;
}

/**
 * The fleet task whose pane a process runs in (from the TMUX and TMUX_PANE it inherited), or
 * null. `tmuxSocket` is the fleet's tmux server: a pane id of another server is not ours.
 */
export function fleetHolderOf(place: ProcessPlace, fleet: readonly FleetHolder[], tmuxSocket: string | null): FleetHolder | null {
  if (place.tmux === null) return null;
  if (tmuxSocket !== null && place.tmux.socket !== tmuxSocket) return null;
  return fleet.find((task) => task.paneId === place.tmux?.pane) ?? null;
}

/** `task 3 (window @5)` or `pid 4242 on /dev/pts/3`. */
export function holderText(holder: FleetHolder | ProcessPlace): string {
  return 'taskId' in holder ? `fleetcom task ${holder.taskId} (window ${holder.windowId})` : describePlace(holder);
}
