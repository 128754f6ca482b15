// `fleetcom worktrees [--json] [--prune]`, `fleetcom diff TASK [--stat]` and `fleetcom trust
// REPO`: the worktrees fleetcom made, in every repository it made one in.
import path from 'node:path';
import type { LsRecord } from '../../control/protocol.js';
import type { Deps } from '../../deps.js';
import { errorMessage, FleetError, NoFleetError } from '../../errors.js';
import { trustFile, worktreeRegistryFile } from '../../paths.js';
import { worktreeRecord, type WorktreeRecord } from '../../worktree-record.js';
import { worktreeDiff } from '../../worktrees/diff.js';
import { branchMerged } from '../../worktrees/merged.js';
import { forget, readRegistry } from '../../worktrees/registry.js';
import { checkRemoval, removeWorktree } from '../../worktrees/remove.js';
import { listWorktrees, realPath, repoOf } from '../../worktrees/repo.js';
import { targetOf, worktreeStatus, type WorktreeStatus } from '../../worktrees/status.js';
import { statusLine } from '../../worktree-record.js';
import { scriptHash, SETUP_SCRIPT, trust } from '../../worktrees/trust.js';
import { ask } from '../ask.js';
import { taskOf } from './worktree-rm.js';

interface Listed extends WorktreeRecord {
  tasks: number[];
  /** git lists it as a linked worktree of its repository. */
  present: boolean;
  status: WorktreeStatus | null;
  /** Why its state could not be read. */
  error: string | null;
}

/** The fleet's tasks, or none when no fleet runs. */
async function fleetTasks(deps: Deps): Promise<LsRecord[]> {
  try {
    return await ask(deps, { op: 'ls' });
  } catch (error) {
    if (error instanceof NoFleetError) return [];
    throw error;
  }
}

async function listed(deps: Deps): Promise<Listed[]> {
  const tasks = await fleetTasks(deps);
  const out: Listed[] = [];
  for (const made of readRegistry(worktreeRegistryFile(deps.env))) {
    const record = worktreeRecord(made);
    const using = tasks.filter((t) => t.worktree?.path === record.path).map((t) => t.id);
    try {
      const present = (await listWorktrees(record.repo)).some((w) => !w.main && w.prunable === null && realPath(w.path) === realPath(record.path));
      out.push({ ...record, tasks: using, present, status: present ? await worktreeStatus(record) : null, error: null });
    } catch (error) {
      out.push({ ...record, tasks: using, present: false, status: null, error: errorMessage(error) });
    }
  }
  return out;
}

export async function runWorktrees(opts: { json?: boolean; prune?: boolean }, deps: Deps): Promise<number> {
  const all = await listed(deps);
  if (opts.prune) return prune(all, deps);
  if (opts.json) {
    deps.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
    return 0;
  }
  for (const w of all) {
    const state = w.error !== null ? `unreadable: ${w.error}` : !w.present ? 'gone' : statusLine(w.branch, w.status);
    const tasks = w.tasks.length === 0 ? 'no task' : `task ${w.tasks.join(', ')}`;
    deps.stdout.write(`${w.path}\t${w.branch}\t${tasks}\t${state}\n`);
  }
  if (all.length === 0) deps.stderr.write('fleetcom has made no worktree (run --worktree BRANCH makes one)\n');
  return 0;
}

/** Removes the worktrees no task uses, clean and merged; any doubt (a git error included) keeps one. */
async function prune(all: readonly Listed[], deps: Deps): Promise<number> {
  const registryFile = worktreeRegistryFile(deps.env);
  let kept = 0;
  const keep = (w: Listed, why: string) => {
    kept += 1;
    deps.stderr.write(`kept ${w.path}: ${why}\n`);
  };
  for (const w of all) {
    if (w.error !== null) keep(w, w.error);
    else if (w.tasks.length > 0) keep(w, `task ${w.tasks.join(', ')} use it`);
    else if (!w.present) {
      await forget(registryFile, w.path);
      deps.stderr.write(`forgot ${w.path}: git no longer lists it\n`);
    } else {
      try {
        const check = await checkRemoval(w, []);
        if (check.refused !== null) keep(w, check.refused);
        else if (check.dirty.length > 0) keep(w, `${check.dirty.length} uncommitted file(s)`);
        else {
          const target = await targetOf(w);
          const merged = await branchMerged(w.repo, w.branch, target);
          if (!merged.merged) keep(w, `branch ${w.branch} is not merged (${merged.why})`);
          else for (const line of await removeWorktree(w, { force: false, registryFile, now: new Date(deps.now()) })) deps.stderr.write(`${line}\n`);
        }
      } catch (error) {
        keep(w, errorMessage(error));
      }
    }
  }
  return kept > 0 ? 1 : 0;
}

export async function runDiff(ref: string, opts: { stat?: boolean }, deps: Deps): Promise<number> {
  const task = taskOf(await ask(deps, { op: 'ls' }), ref);
  if (!task.worktree) throw new FleetError(`task ${task.id} runs in no worktree fleetcom made`);
  const color = (deps.stdout as { isTTY?: boolean }).isTTY === true && deps.env.NO_COLOR === undefined;
  deps.stdout.write(await worktreeDiff(worktreeRecord(task.worktree), { stat: opts.stat === true, color }));
  return 0;
}

export async function runTrust(dir: string, deps: Deps): Promise<number> {
  const checkout = path.resolve(deps.cwd, dir);
  const repo = await repoOf(checkout);
  const hash = scriptHash(checkout);
  if (hash === null) throw new FleetError(`${path.join(checkout, SETUP_SCRIPT)} does not exist; nothing to trust`);
  trust(trustFile(deps.env), repo, hash);
  deps.stderr.write(`trusted ${path.join(checkout, SETUP_SCRIPT)} (sha256 ${hash.slice(0, 16)}…) for the worktrees of ${repo}\n`);
  return 0;
}
