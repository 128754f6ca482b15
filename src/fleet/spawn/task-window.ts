// The tmux window a new task gets. Pure. Its options and pane-died hook go in the same tmux
// call as new-window, so a command that exits at once still finds them.
import type { Launch } from './launch.js';
import { windowName, type Task } from '../supervisor/task.js';
import type { WindowSpec } from '../tmux/tmux-port.js';
import { SPEC_OPTION } from './window-spec.js';

export function taskWindow(draft: Task, launch: Launch, fleet: TaskWindowFleet): WindowSpec {
  return { cwd: draft.cwd, env: launch.windowEnv, argv: launch.argv, path: launch.path, ...taskWindowMarks(draft, fleet) };
}

export interface TaskWindowFleet {
  socket: string;
  paneDiedHook: string;
  now: number;
  spec: string | null;
}

/** What makes a window a task's, whether tmux makes it for the task or it is taken over (fleetcom adopt). */
export function taskWindowMarks(task: Task, fleet: TaskWindowFleet): Pick<WindowSpec, 'name' | 'windowOptions' | 'windowHooks'> {
  return {
    name: windowName(task, fleet.now),
    windowOptions: {
      'remain-on-exit': 'on',
      'automatic-rename': 'off',
      '@fleetcom-task': String(task.id),
      '@fleetcom-run': String(task.run),
      '@fleetcom-socket': fleet.socket,
      ...(fleet.spec === null ? {} : { [SPEC_OPTION]: fleet.spec }),
    },
    windowHooks: { 'pane-died': fleet.paneDiedHook },
  };
}
