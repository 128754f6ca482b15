// Who uses a worktree: the tasks of this fleet (asked, live) and of every other fleet of this
// config dir (their state.json, fleet/lifecycle/fleet-index.ts). A task uses a worktree when
// it was made for it or runs anywhere inside it.
import type { LsRecord } from '../../control/protocol.js';
import type { Deps } from '../../deps.js';
import { NoFleetError } from '../../errors.js';
import { knownRuntimeDirs, readFleets, tasksIn, usesWorktree, type FleetsRead } from '../../fleet/lifecycle/fleet-index.js';
import { fleetIndexFile, fleetRuntime } from '../../paths.js';
import { ask } from '../ask.js';

export interface Users extends FleetsRead {
  /** This fleet's tasks; none when no fleet runs here. */
  local: LsRecord[];
}

export interface UsersOf {
  local: number[];
  elsewhere: Array<{ runtimeDir: string; id: number; running: boolean }>;
}

export async function worktreeUsers(deps: Deps): Promise<Users> {
  let local: LsRecord[] | null;
  try {
    local = await ask(deps, { op: 'ls' });
  } catch (error) {
    if (!(error instanceof NoFleetError)) throw error;
    local = null;
  }
  // This fleet answered for itself; without one, a state.json its supervisor left here counts like any other.
  const others = readFleets(knownRuntimeDirs(fleetIndexFile(deps.env), deps.env), local === null ? null : fleetRuntime(deps.env).dir);
  return { local: local ?? [], ...others };
}

export function usersOf(users: Users, worktree: string): UsersOf {
  return {
    local: users.local.filter((t) => usesWorktree({ id: t.id, cwd: t.cwd, worktree: t.worktree?.path ?? null }, worktree)).map((t) => t.id),
    elsewhere: tasksIn(users.fleets, worktree),
  };
}

/** `task 2, 5; task 3 of the fleet at /run/…/fleetcom (not running)`. */
export function usersText(of: UsersOf): string {
  const parts = of.local.length > 0 ? [`task ${of.local.join(', ')}`] : [];
  for (const t of of.elsewhere) parts.push(`task ${t.id} of the fleet at ${t.runtimeDir}${t.running ? '' : ' (its supervisor is not running)'}`);
  return parts.join('; ');
}
