// `h` in the dashboard: the past conversations of a directory (or of all the fleet's), read
// the way `fleetcom history` reads them, and Enter's resume, planned as `fleetcom resume` plans it.
import { formatAge } from '../format-age.js';
import {
  fleetTasks, fleetViewOf, heldBy, holderCheck, planResume, readHistory, scopeDirs, type Found, type FleetView,
} from '../history/index.js';
import { abbreviateDir } from '../sessions/index.js';
import { selectWindow } from '../tmux/windows.js';
import type { FleetUiContext as ActionDeps } from '../fleet/lifecycle/fleet-ui.js';
import type { HistoryChoice } from './model.js';

/** The rows of the last listing, by choice key: Enter resumes one of them. */
let listed = new Map<string, Found>();
let listedView: FleetView | null = null;

const keyOf = (row: Found) => `${row.agent}\u0000${row.home}\u0000${row.id}`;

async function view(deps: ActionDeps): Promise<FleetView> {
  return fleetViewOf(await deps.fleet.handle({ op: 'ls' }), await deps.fleet.handle({ op: 'save' }));
}

export async function historyChoices(cwd: string | null, deps: ActionDeps): Promise<{ history: HistoryChoice[]; where: string }> {
  const fleet = await view(deps);
  const dirs = cwd !== null
    ? await scopeDirs(cwd, { ...deps.env })
    : [...new Set([deps.cwd, ...fleet.tasks.map((t) => t.cwd)])];
  const gathered = await readHistory(deps.env, fleet, { kind: 'dirs', dirs }, null);
  const held = heldBy(gathered.found, fleetTasks(fleet), fleet.tmuxSocket);
  listed = new Map(gathered.found.map((row) => [keyOf(row), row]));
  listedView = fleet;
  const now = deps.now();
  const history = gathered.found.map((row, i): HistoryChoice => {
    const by = held[i] ?? null;
    const holder = by === null ? '' : 'task' in by ? `[task ${by.task}] ` : `[pid ${by.pid}] `;
    const dir = cwd === null ? `  ${abbreviateDir(row.cwd, deps.home)}` : '';
    const title = row.title.replace(/[\p{Cc}\s]+/gu, ' ').trim() || '(untitled)';
    return {
      label: `${row.agent.padEnd(8)} ${formatAge(now - row.updatedAt).padStart(4)}  ${holder}${title}${dir}  ${row.id}`,
      key: keyOf(row),
      heldByTask: by !== null && 'task' in by ? by.task : null,
      text: `${row.agent} ${title} ${row.id} ${row.cwd}`.toLowerCase(),
    };
  });
  return { history, where: cwd === null ? "the fleet's directories" : abbreviateDir(cwd, deps.home) };
}

export async function resumeConversation(key: string, deps: ActionDeps): Promise<string> {
  const row = listed.get(key);
  if (row === undefined) return 'that conversation is no longer listed: press h again';
  const fleet = listedView ?? (await view(deps));
  const plan = planResume(row, holderCheck(fleetTasks(fleet), fleet.tmuxSocket)(row), deps.env);
  switch (plan.kind) {
    case 'held-by-task': {
      const task = [...deps.fleet.tasks()].find((t) => t.id === plan.task);
      if (task) await selectWindow(deps.tmux, task.windowId);
      return `task ${plan.task} has ${row.id} open`;
    }
    case 'held-by-pid':
      return `${row.agent} ${row.id} is open in pid ${plan.pid} outside this fleet: close it there first`;
    case 'gone':
      return `${row.id} ran in ${plan.cwd}, which no longer exists`;
    case 'start': {
      const { id } = await deps.fleet.handle({ op: 'run', command: plan.command, cwd: plan.cwd, env: plan.env, name: null, group: null });
      return `task ${id}: ${plan.command}`;
    }
  }
}
