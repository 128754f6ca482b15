// Adopting the windows of a supervisor that died: its tasks keep running in
// tmux. state.json tells what each one is; when it has no record of a window (lost, damaged,
// or written before the window was made), the record the window carries itself
// (`@fleetcom-spec`) does. A tagged window with neither is an *unknown* task: listed under its
// window name, but with no command, so it is never rerun or saved as that name.
import type { PersistedState } from './state-file.js';
import type { Task } from '../supervisor/task.js';
import type { PaneInfo } from '../tmux/tmux-port.js';
import { decodeSpec } from '../spawn/window-spec.js';

export interface Adoption {
  tasks: Task[];
  nextId: number;
  warnings: string[];
}

export function adoptTasks(
  panes: readonly PaneInfo[],
  state: PersistedState | null,
  input: { socket: string; env: Record<string, string>; cwd: string; now: number; specs: ReadonlyMap<string, string> },
): Adoption {
  const records = new Map((state?.tasks ?? []).map((t) => [t.id, t]));
  const tasks: Task[] = [];
  const warnings: string[] = [];
  for (const pane of panes) {
    if (pane.task === null || pane.socket !== input.socket) continue;
    const id = Number(pane.task);
    if (!Number.isSafeInteger(id) || id <= 0 || tasks.some((t) => t.id === id)) continue;
    const record = records.get(id);
    const parsedRun = Number(pane.run ?? record?.run ?? 0);
    const run = Number.isSafeInteger(parsedRun) && parsedRun >= 0 ? parsedRun : 0;
    const common = { windowId: pane.windowId, paneId: pane.paneId, env: input.env, captured: null };
    // A record of an earlier run: the supervisor died during a rerun, after tmux had the new one.
    const current = record && record.run === run ? record : null;
    if (current) {
      tasks.push({ ...current, ...common, captured: current.captured ?? null, lastOutputAt: Math.max(current.spawnedAt, pane.activity) });
      continue;
    }
    const spec = decodeSpec(input.specs.get(pane.windowId), id, run);
    const fresh = { run, exitStatus: null, exitHint: null, killed: false, endedAt: null, ...common };
    if (spec) {
      const { v: _version, ...fields } = spec;
      warnings.push(`state.json has no record of task ${id} run ${run}: adopted it from its window ${pane.windowId}`);
      tasks.push({ ...fields, lastOutputAt: Math.max(spec.spawnedAt, pane.activity), ...fresh, exitHint: spec.exitHint, captured: spec.captured ?? null });
      continue;
    }
    if (record) {
      warnings.push(`state.json knows task ${id} at run ${record.run} but its window runs ${run}: adopted with the record's command`);
      tasks.push({ ...record, lastOutputAt: Math.max(record.spawnedAt, pane.activity), ...fresh });
      continue;
    }
    warnings.push(
      `window ${pane.windowId} carries @fleetcom-task ${id} but neither state.json nor the window holds its command: ` +
        `adopted as an unknown task (never rerun or saved; fleetcom rm ${id} forgets it)`,
    );
    tasks.push({
      id, cwd: input.cwd, command: null, name: pane.windowName || `task ${id}`, group: null, tagged: false, harness: null,
      pinnedId: null, targetId: null, captureFile: null, home: null, spawnedAt: input.now, everHeld: [],
      lastOutputAt: input.now, ...fresh,
    });
  }
  const nextId = Math.max(state?.nextId ?? 1, ...tasks.map((t) => t.id + 1));
  return { tasks, nextId, warnings };
}
