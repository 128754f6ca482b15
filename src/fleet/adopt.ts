// Adopting the windows of a supervisor that died (product.md §3.6): its tasks keep running in
// tmux; state.json tells what each one is. A tagged window with no record becomes a plain task.
import type { PersistedState } from './state-file.js';
import type { Task } from './task.js';
import type { PaneInfo } from './tmux-port.js';

export interface Adoption {
  tasks: Task[];
  nextId: number;
  warnings: string[];
}

export function adoptTasks(
  panes: readonly PaneInfo[],
  state: PersistedState | null,
  input: { socket: string; env: Record<string, string>; cwd: string; now: number },
): Adoption {
  const records = new Map((state?.tasks ?? []).map((t) => [t.id, t]));
  const tasks: Task[] = [];
  const warnings: string[] = [];
  for (const pane of panes) {
    if (pane.task === null || pane.socket !== input.socket) continue;
    const id = Number(pane.task);
    if (!Number.isSafeInteger(id) || id <= 0 || tasks.some((t) => t.id === id)) continue;
    const record = records.get(id);
    const common = { windowId: pane.windowId, paneId: pane.paneId, env: input.env, captured: null };
    if (record) {
      tasks.push({ ...record, ...common, lastOutputAt: Math.max(record.spawnedAt, pane.activity) });
      continue;
    }
    warnings.push(`window ${pane.windowId} carries @fleetcom-task ${id} but state.json has no record of it: adopted as a plain task`);
    tasks.push({
      id, run: Number(pane.run ?? 0) || 0, cwd: input.cwd, command: pane.windowName ?? `task ${id}`, name: null, group: null,
      tagged: false, harness: null, pinnedId: null, targetId: null, captureFile: null, home: null, spawnedAt: input.now,
      exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], lastOutputAt: input.now, ...common,
    });
  }
  const nextId = Math.max(state?.nextId ?? 1, ...tasks.map((t) => t.id + 1));
  return { tasks, nextId, warnings };
}
