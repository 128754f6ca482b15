// `fleetcom worktrees [--json] [--prune]`, `fleetcom diff TASK [--stat]` and `fleetcom trust
// REPO`: the worktrees fleetcom made, in every repository it made one in, with the tasks of
// every fleet of the user that use each and, when gh can tell, its branch's pull request.
import path from 'node:path';
import type { Deps } from '../../deps.js';
import { errorMessage, FleetError } from '../../errors.js';
import { trustFile, worktreeRegistryFile } from '../../paths.js';
import { worktreeRecord, type WorktreeRecord } from '../../worktree-record.js';
import { worktreeDiff } from '../../worktrees/diff.js';
import { branchMerged } from '../../worktrees/merged.js';
import { forget, readRegistry } from '../../worktrees/registry.js';
import { checkRemoval, removeWorktree } from '../../worktrees/remove.js';
import { commitOf, listWorktrees, realPath, repoOf } from '../../worktrees/repo.js';
import { findOnPath, pullRequests, type PullRequestState } from '../../worktrees/gh.js';
import { git } from '../../worktrees/git.js';
import { targetOf, worktreeStatus, type WorktreeStatus } from '../../worktrees/status.js';
import { statusLine } from '../../worktree-record.js';
import { scriptHash, SETUP_SCRIPT, trust } from '../../worktrees/trust.js';
import { ask } from '../ask.js';
import { taskOf } from './worktree-rm.js';
import { usersOf, usersText, worktreeUsers, type Users, type UsersOf } from './worktree-users.js';

interface Listed extends WorktreeRecord {
  /** This fleet's tasks in it. */
  tasks: number[];
  /** The tasks of the user's other fleets in it (their state.json). */
  otherTasks: UsersOf['elsewhere'];
  /** git lists it as a linked worktree of its repository. */
  present: boolean;
  status: WorktreeStatus | null;
  /** The branch's pull request as gh tells it, or null (no gh, no pull request, gh could not say). */
  pullRequest: PullRequestState | null;
  /** Why its state could not be read. */
  error: string | null;
}

/** The pull requests of each repository, by branch, when gh is installed and the repository has a remote; gh's failures said once. */
async function pullRequestsOf(repos: readonly string[], deps: Deps): Promise<Map<string, Map<string, PullRequestState>>> {
  const out = new Map<string, Map<string, PullRequestState>>();
  const gh = findOnPath('gh', deps.env.PATH);
  if (gh === null) return out;
  await Promise.all([...new Set(repos)].map(async (repo) => {
    try {
      if ((await git(['-C', repo, 'remote'])).trim() === '') return;
      out.set(repo, await pullRequests(gh, repo));
    } catch (error) {
      deps.stderr.write(`pull request states of ${repo} unknown: ${errorMessage(error)}\n`);
    }
  }));
  return out;
}

async function listed(users: Users, deps: Deps): Promise<Listed[]> {
  const made = readRegistry(worktreeRegistryFile(deps.env)).map((m) => worktreeRecord(m));
  const prs = await pullRequestsOf(made.map((r) => r.repo), deps);
  const out: Listed[] = [];
  for (const record of made) {
    const of = usersOf(users, record.path);
    const base = { ...record, tasks: of.local, otherTasks: of.elsewhere, pullRequest: prs.get(record.repo)?.get(record.branch) ?? null };
    try {
      const present = (await listWorktrees(record.repo)).some((w) => !w.main && w.prunable === null && realPath(w.path) === realPath(record.path));
      out.push({ ...base, present, status: present ? await worktreeStatus(record) : null, error: null });
    } catch (error) {
      out.push({ ...base, present: false, status: null, error: errorMessage(error) });
    }
  }
  return out;
}

export async function runWorktrees(opts: { json?: boolean; prune?: boolean }, deps: Deps): Promise<number> {
  const users = await worktreeUsers(deps);
  const all = await listed(users, deps);
  if (opts.prune) return prune(all, users, deps);
  if (opts.json) {
    deps.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
    return 0;
  }
  for (const w of all) {
    const pr = w.pullRequest === null ? '' : ` · PR #${w.pullRequest.number} ${w.pullRequest.state}`;
    const state = w.error !== null ? `unreadable: ${w.error}` : !w.present ? 'gone' : `${statusLine(w.branch, w.status)}${pr}`;
    const tasks = usersText({ local: w.tasks, elsewhere: w.otherTasks }) || 'no task';
    deps.stdout.write(`${w.path}\t${w.branch}\t${tasks}\t${state}\n`);
  }
  for (const u of users.unreadable) deps.stderr.write(`the tasks of the fleet at ${u.runtimeDir} cannot be read: ${u.why}\n`);
  if (all.length === 0) deps.stderr.write('fleetcom has made no worktree (run --worktree BRANCH makes one)\n');
  return 0;
}

/** Merged into its target, or its pull request merged on the remote with the branch's very tip. */
async function mergedHow(w: Listed): Promise<string | null> {
  const merged = await branchMerged(w.repo, w.branch, await targetOf(w));
  if (merged.merged) return null;
  const tip = await commitOf(w.repo, `refs/heads/${w.branch}`);
  if (w.pullRequest?.state === 'merged' && tip !== null && w.pullRequest.head === tip) return null;
  return `branch ${w.branch} is not merged (${merged.why}${w.pullRequest === null ? '' : `; PR #${w.pullRequest.number} is ${w.pullRequest.state}${w.pullRequest.state === 'merged' ? ' but the branch has moved since' : ''}`})`;
}

/**
 * Removes the worktrees no task of any fleet uses, clean and merged; any doubt (a git error
 * included) keeps one, and a fleet whose tasks cannot be read keeps them all.
 */
async function prune(all: readonly Listed[], users: Users, deps: Deps): Promise<number> {
  if (users.unreadable.length > 0) {
    for (const u of users.unreadable) deps.stderr.write(`the tasks of the fleet at ${u.runtimeDir} cannot be read: ${u.why}\n`);
    deps.stderr.write(`nothing pruned: while the tasks of a fleet cannot be read, any worktree may be in use\n`);
    return 1;
  }
  const registryFile = worktreeRegistryFile(deps.env);
  let kept = 0;
  const keep = (w: Listed, why: string) => {
    kept += 1;
    deps.stderr.write(`kept ${w.path}: ${why}\n`);
  };
  for (const w of all) {
    const using = usersText({ local: w.tasks, elsewhere: w.otherTasks });
    if (w.error !== null) keep(w, w.error);
    else if (using !== '') keep(w, `${using} use it`);
    else if (!w.present) {
      await forget(registryFile, w.path);
      deps.stderr.write(`forgot ${w.path}: git no longer lists it\n`);
    } else {
      try {
        const check = await checkRemoval(w, []);
        const unmerged = check.refused === null && check.dirty.length === 0 ? await mergedHow(w) : null;
        if (check.refused !== null) keep(w, check.refused);
        else if (check.dirty.length > 0) keep(w, `${check.dirty.length} uncommitted file(s)`);
        else if (unmerged !== null) keep(w, unmerged);
        else for (const line of await removeWorktree(w, { force: false, registryFile, now: new Date(deps.now()) })) deps.stderr.write(`${line}\n`);
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
