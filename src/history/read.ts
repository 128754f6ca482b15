import { homedir } from 'node:os';
import { effectiveSettings } from '../config/settings.js';
import type { HarnessName, HistoryScope } from '../harness/index.js';
import { cacheDir, sessionDir, userHome } from '../paths.js';
import type { FleetView } from './fleet-view.js';
import { gatherHistory, historyCacheFile, type Gathered } from './gather.js';

// One history read as the CLI and the dashboard both make it: this environment's homes and
// config, the fleet's tasks' homes, the cache in fleetcom's cache dir.

type Env = Readonly<Record<string, string | undefined>>;

export async function readHistory(env: Env, view: FleetView, scope: HistoryScope, agent: HarnessName | null): Promise<Gathered> {
  const { settings } = effectiveSettings({ env });
  return gatherHistory({
    env,
    userHome: userHome(env),
    taskHomes: view.homes,
    sessionDir: sessionDir(env),
    configured: settings.homes,
    agent,
    scope,
    cacheFile: historyCacheFile(cacheDir(env, process.platform, env.HOME || homedir())),
  });
}
