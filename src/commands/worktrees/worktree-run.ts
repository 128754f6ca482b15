// The CLI side of worktree tasks: `run --worktree` makes (or shares) the worktree before the
// supervisor starts the task in it, and load / up NAME / recover make again the worktrees of
// saved entries that are gone, before their agents resume. git runs in the caller's process,
// with the caller's git configuration, never in the supervisor's queue.
import { effectiveSettings } from '../../config/settings.js';
import { callerEnv, type Deps } from '../../deps.js';
import { errorMessage } from '../../errors.js';
import { trustFile, worktreeRegistryFile } from '../../paths.js';
import type { SessionTask } from '../../sessions/index.js';
import type { Warning } from '../../warnings.js';
import type { WorktreeRecord } from '../../worktree-record.js';
import { provideWorktree } from '../../worktrees/create.js';
import { restoreWorktree } from '../../worktrees/recreate.js';
import type { SetupOptions } from '../../worktrees/setup.js';

export function setupOptions(deps: Deps): { template: string; registryFile: string; setup: SetupOptions } {
  const { settings } = effectiveSettings(deps);
  return {
    template: settings.worktreeDir,
    registryFile: worktreeRegistryFile(deps.env),
    setup: {
      command: settings.worktreeSetup,
      deadlineMs: settings.worktreeSetupSeconds * 1000,
      trustFile: trustFile(deps.env),
      env: callerEnv(deps),
      say: (line) => deps.stderr.write(`${line}\n`),
    },
  };
}

/** `run --worktree BRANCH [--base REF]` from `cwd`: the worktree the task runs in. */
export async function worktreeForRun(branch: string, base: string | null, cwd: string, deps: Deps): Promise<WorktreeRecord> {
  const options = setupOptions(deps);
  const { record, shared } = await provideWorktree({ branch, base, cwd, ...options });
  deps.stderr.write(shared ? `sharing the worktree of ${branch} at ${record.path}\n` : `made the worktree of ${branch} at ${record.path} (from ${record.baseRef ?? record.base.slice(0, 12)})\n`);
  return record;
}

/**
 * The saved tasks whose worktree is there (or was made again at its path), and one warning for
 * each that cannot be: its repository or branch gone, its path holding something else.
 */
export async function withWorktrees<T extends Pick<SessionTask, 'cwd' | 'cmd' | 'worktree'>>(tasks: readonly T[], deps: Deps): Promise<{ ready: T[]; refused: Warning[] }> {
  if (!tasks.some((t) => t.worktree !== undefined)) return { ready: [...tasks], refused: [] };
  const options = setupOptions(deps);
  const why = new Map<string, string | null>();
  const ready: T[] = [];
  const refused: Warning[] = [];
  for (const task of tasks) {
    if (task.worktree === undefined) {
      ready.push(task);
      continue;
    }
    // Two tasks of one worktree (an agent and its dev server) are made once.
    if (!why.has(task.worktree.path)) {
      why.set(task.worktree.path, await restoreWorktree(task.worktree, options).catch((error: unknown) => errorMessage(error)));
    }
    const reason = why.get(task.worktree.path) ?? null;
    if (reason === null) ready.push(task);
    else refused.push({ entry: `${task.cwd}: ${task.cmd}`, reason: `worktree not restored: ${reason}` });
  }
  return { ready, refused };
}
