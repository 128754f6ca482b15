// What `history` and `resume` need of the running fleet: its tasks (who holds which
// conversation), their agent homes and its tmux socket; nothing when no fleet runs.
import { homedir } from 'node:os';
import type { LsRecord } from '../control/protocol.js';
import type { Deps } from '../deps.js';
import { NoFleetError } from '../errors.js';
import { effectiveSettings } from '../config/settings.js';
import { cacheDir, sessionDir, userHome } from '../paths.js';
import { gatherHistory, historyCacheFile, type FleetTask, type Gathered } from '../history/index.js';
import type { HarnessName, HistoryScope } from '../harness/index.js';
import { ask } from './ask.js';

export interface FleetView {
  tasks: LsRecord[];
  homes: Array<Record<string, string>>;
  tmuxSocket: string | null;
}

export async function fleetView(deps: Deps): Promise<FleetView> {
  try {
    const tasks = await ask(deps, { op: 'ls' });
    const saved = await ask(deps, { op: 'save' });
    const homes = saved.flatMap((entry) => (entry.env === undefined ? [] : [entry.env as Record<string, string>]));
    return { tasks, homes, tmuxSocket: tasks.find((t) => t.tmuxSocket)?.tmuxSocket ?? null };
  } catch (error) {
    if (error instanceof NoFleetError) return { tasks: [], homes: [], tmuxSocket: null };
    throw error;
  }
}

/** The running tasks as holders of the conversation each names. */
export function fleetTasks(view: FleetView): FleetTask[] {
  return view.tasks
    .filter((t) => t.state !== 'exited' && t.conversationId !== null && t.harness !== null)
    .map((t) => ({ taskId: t.id, windowId: t.windowId, paneId: t.paneId, conversationId: t.conversationId ?? '', agent: t.harness ?? '' }));
}

/** The conversations of `scope` in every home this caller can name. */
export async function readHistory(deps: Deps, view: FleetView, scope: HistoryScope, agent: HarnessName | null): Promise<Gathered> {
  const home = userHome(deps.env);
  const { settings } = effectiveSettings(deps);
  return gatherHistory({
    env: deps.env,
    userHome: home,
    taskHomes: view.homes,
    sessionDir: sessionDir(deps.env),
    configured: settings.homes,
    agent,
    scope,
    cacheFile: historyCacheFile(cacheDir(deps.env, process.platform, deps.env.HOME || homedir())),
  });
}
