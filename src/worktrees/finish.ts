// Carrying out a finish plan that refused nothing, in the order that never loses a commit:
// commit (--commit), land the branch, and only after it landed stop and remove the task, remove
// the worktree (only if clean then: what the agent wrote meanwhile keeps it) and delete the
// branch (only once merged, under rm --worktree --delete-branch's rules). The first step that
// fails ends it: nothing after it runs, so nothing is deleted. `--pr` pushes and proposes; the
// task and the worktree stay.
import { errorMessage, FleetError } from '../errors.js';
import type { FinishPlan } from './finish-plan.js';
import { commitWork, landBranch, type Landed } from './finish-steps.js';
import { commitsToMerge, mergeTree, playRebase, treeOf } from './merge-check.js';
import { pullRequestText, pushAndOpen } from './pull-request.js';
import { checkRemoval, deleteBranchIfMerged, removeWorktree } from './remove.js';
import { identityEnv } from './wip.js';

export interface FinishHooks {
  /** Stops and removes the task, as `fleetcom rm` does. */
  removeTask(): Promise<void>;
  say(line: string): void;
  registryFile: string;
  now: Date;
}

export interface FinishResult {
  /** Every step ran. */
  done: boolean;
  /** --commit's commit. */
  committed: string | null;
  landed: Landed | null;
  /** `existing`: gh had one open for the branch already; the push brought it up to date. */
  pullRequest: { url: string | null; opened: boolean; existing: boolean } | null;
  taskRemoved: boolean;
  worktreeRemoved: boolean;
  branchDeleted: boolean;
  /** Why the worktree or the branch stayed. */
  kept: string[];
  /** The step that failed and why; null when none did. */
  error: string | null;
}

/**
 * After a real --commit: the plan's commits are the real ones (the plan's preview commit had
 * another id), and its merge is computed again when the commit's hooks changed what it holds.
 */
async function replan(plan: FinishPlan, tip: string): Promise<FinishPlan> {
  const { repo } = plan.record;
  const commits = await commitsToMerge(repo, plan.intoTip!, tip);
  const pr = plan.pr === null ? null : { ...plan.pr, ...pullRequestText(plan.record.branch, commits) };
  if (plan.mode === 'pr' || (await treeOf(repo, tip)) === (await treeOf(repo, plan.tip!))) return { ...plan, tip, commits, pr };
  const merged = plan.mode === 'rebase' ? await playRebase(repo, plan.intoTip!, tip, await identityEnv(repo)) : await mergeTree(repo, plan.intoTip!, tip);
  if (!merged.clean) throw new FleetError(`after the commit (its hooks changed it), merging conflicts in: ${merged.conflicts.join(', ')}; the commit stays on ${plan.record.branch}, nothing was merged or deleted`);
  return { ...plan, tip, commits, pr, tree: merged.tree, alreadyIn: commits.length === 0 };
}

export async function carryOut(planned: FinishPlan, hooks: FinishHooks): Promise<FinishResult> {
  if (planned.refusals.length > 0) throw new Error('carryOut: the plan refused');
  const result: FinishResult = {
    done: false, committed: null, landed: null, pullRequest: null, taskRemoved: false, worktreeRemoved: false, branchDeleted: false, kept: [], error: null,
  };
  const { record } = planned;
  let plan = planned;
  try {
    if (plan.commitFirst !== null) {
      result.committed = await commitWork(plan);
      hooks.say(`committed ${plan.commitFirst.files.length} file(s) on ${record.branch} as ${result.committed.slice(0, 12)}`);
      plan = await replan(plan, result.committed);
    }
    if (plan.mode === 'pr') {
      const pr = await pushAndOpen(record, plan.into!, plan.pr!, hooks.say);
      result.pullRequest = pr !== null ? { url: pr.url, opened: true, existing: pr.existing } : { url: plan.pr!.compareUrl, opened: false, existing: false };
      if (pr?.existing === true) hooks.say(`the pull request of ${record.branch} is open already, now with its new commits: ${pr.url}`);
      else if (pr !== null) hooks.say(`opened a pull request of ${record.branch} into ${plan.into}: ${pr.url}`);
      else if (plan.pr!.compareUrl !== null) hooks.say(`gh is not installed: open the pull request at ${plan.pr!.compareUrl}`);
      else hooks.say(`gh is not installed and ${plan.pr!.url} is no web host's URL: open a pull request of ${record.branch} into ${plan.into} there`);
      result.done = true;
      return result;
    }
    if (plan.alreadyIn) hooks.say(`nothing to merge: the work of ${record.branch} is in ${plan.into} already`);
    else {
      result.landed = await landBranch(plan, plan.tip!);
      const how = plan.mode === 'merge' ? 'merged' : plan.mode === 'squash' ? 'squashed' : 'rebased and fast-forwarded';
      hooks.say(`${how} ${plan.commits.length} commit(s) of ${record.branch} into ${plan.into}: now ${result.landed.commit.slice(0, 12)} in ${plan.target}`);
      if (!result.landed.treeAsPlanned) hooks.say(`note: ${plan.into}'s tree is not the one the plan computed (a hook changed the commit?); the branch is deleted only if its work is found in ${plan.into}`);
    }
    try {
      await hooks.removeTask();
    } catch (error) {
      throw new FleetError(`the task was not stopped and removed: ${errorMessage(error)}; nothing was deleted`);
    }
    result.taskRemoved = true;
    await cleanUp(plan, hooks, result);
    result.done = true;
  } catch (error) {
    result.error = errorMessage(error);
  }
  return result;
}

async function cleanUp(plan: FinishPlan, hooks: FinishHooks, result: FinishResult): Promise<void> {
  const { record } = plan;
  const keep = (why: string) => {
    result.kept.push(why);
    hooks.say(why);
  };
  if (plan.keepWorktree !== null) keep(`the worktree ${record.path} stays: ${plan.keepWorktree}`);
  else {
    const check = await checkRemoval(record, []);
    if (check.refused !== null) keep(`the worktree stays: ${check.refused}`);
    else if (check.dirty.length > 0) keep(`the worktree ${record.path} stays: ${check.dirty.length} file(s) were changed after the merge (${check.dirty.slice(0, 5).map((l) => l.slice(3)).join(', ')})`);
    else {
      for (const line of await removeWorktree(record, { force: false, registryFile: hooks.registryFile, now: hooks.now })) hooks.say(line);
      result.worktreeRemoved = true;
    }
  }
  if (plan.keepBranch !== null) keep(`branch ${record.branch} stays: ${plan.keepBranch}`);
  else if (!result.worktreeRemoved) keep(`branch ${record.branch} stays: its worktree does`);
  else {
    // The branch itself, never a tag of that name (rev-parse would take the tag first).
    const deleted = await deleteBranchIfMerged(record, `refs/heads/${plan.into!}`);
    if (deleted.deleted) hooks.say(deleted.message);
    else keep(deleted.message);
    result.branchDeleted = deleted.deleted;
  }
}
