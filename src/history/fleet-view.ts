import type { LsRecord, RecipeTask } from '../control/protocol.js';
import type { FleetTask } from './held.js';

// What history needs of the running fleet, from its own replies (`ls`, `save`): who holds which
// conversation, the agent homes its tasks run with, and its tmux server.

export interface FleetView {
  tasks: readonly LsRecord[];
  homes: ReadonlyArray<Readonly<Record<string, string>>>;
  tmuxSocket: string | null;
}

export const NO_FLEET: FleetView = { tasks: [], homes: [], tmuxSocket: null };

export function fleetViewOf(tasks: readonly LsRecord[], saved: readonly Pick<RecipeTask, 'env'>[]): FleetView {
  const homes = saved.flatMap((entry) => (entry.env === undefined ? [] : [entry.env as Record<string, string>]));
  return { tasks, homes, tmuxSocket: tasks.find((t) => t.tmuxSocket)?.tmuxSocket ?? null };
}

/** The running tasks as holders of the conversation each names. */
export function fleetTasks(view: FleetView): FleetTask[] {
  return view.tasks
    .filter((t) => t.state !== 'exited' && t.conversationId !== null && t.harness !== null)
    .map((t) => ({ taskId: t.id, windowId: t.windowId, paneId: t.paneId, conversationId: t.conversationId ?? '', agent: t.harness ?? '' }));
}
