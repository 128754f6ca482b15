// `fleetcom finish`: everything checked before anything changes, and said. The plan reads
// git only (the merge itself computed by merge-tree, in the object store); every reason not to
// go on is collected as a refusal, and a plan with one changes nothing.
import type { WorktreeRecord } from '../worktree-record.js';
import { errorMessage, UsageError } from '../errors.js';
import { git } from './git.js';
import { mergeTreeProblem } from './git-version.js';
import { changedPaths, checkoutOf, checkoutProblem, operationInProgress, resolveInto, untrackedFiles, type IntoSource } from './finish-target.js';
import { commitsToMerge, mergeTree, playRebase, treeOf, type Commit } from './merge-check.js';
import { planPullRequest, type PullRequestPlan } from './pull-request.js';
import { commitOf, listWorktrees, realPath } from './repo.js';
import { uncommitted } from './status.js';
import { checkoutTree, identityEnv } from './wip.js';

export type FinishMode = 'merge' | 'squash' | 'rebase' | 'pr';

export interface FinishRequest {
  record: WorktreeRecord;
  mode: FinishMode;
  /** --into, or null: the base branch, else the default branch. */
  into: string | null;
  /** --commit MSG: commit what is uncommitted first. */
  commitMessage: string | null;
  keepWorktree: boolean;
  keepBranch: boolean;
  /** Who else uses the worktree, in words (`task 4`, another fleet's task): it then stays. */
  others: readonly string[];
  /** The user's gh (gh.ts findOnPath), or null. */
  gh: string | null;
}

export interface FinishPlan {
  mode: FinishMode;
  record: WorktreeRecord;
  into: string | null;
  intoSource: IntoSource | null;
  /** The checkout that holds `into`, where the merge happens (not for --pr). */
  target: string | null;
  /** The branch's tip now (the worktree's HEAD), and the tip it will have after --commit. */
  head: string | null;
  tip: string | null;
  intoTip: string | null;
  /** --commit: the message and the files it commits; null when nothing is committed first. */
  commitFirst: { message: string; files: string[] } | null;
  /** What the branch brings that the target lacks, oldest first. */
  commits: Commit[];
  /** The target's tree after the merge (merge, squash, rebase). */
  tree: string | null;
  /** Nothing to merge: the branch's work is in the target already. */
  alreadyIn: boolean;
  /** --pr: where the merge would conflict (said, not refused: the review resolves them). */
  conflicts: string[];
  pr: PullRequestPlan | null;
  /** Why the worktree stays after the merge, or null: it is removed (if still clean then). */
  keepWorktree: string | null;
  /** Why the branch stays, or null: it is deleted once merged. */
  keepBranch: string | null;
  notes: string[];
  refusals: string[];
}

const short = (sha: string | null) => (sha ?? '').slice(0, 12);

/** Untracked files of the target that a merge changing `changed` would overwrite (or put a file under). */
export function collisions(untracked: readonly string[], changed: readonly string[]): string[] {
  const set = new Set(changed);
  return untracked.filter((u) => set.has(u) || changed.some((c) => c.startsWith(`${u}/`) || u.startsWith(`${c}/`)));
}

function emptyPlan(request: FinishRequest): FinishPlan {
  return {
    mode: request.mode, record: request.record, into: null, intoSource: null, target: null, head: null, tip: null, intoTip: null,
    commitFirst: null, commits: [], tree: null, alreadyIn: false, conflicts: [], pr: null,
    keepWorktree: null, keepBranch: null, notes: [], refusals: [],
  };
}

/** The plan; a usage error (exit 2) only for a bad --into name. Changes nothing. */
export async function planFinish(request: FinishRequest): Promise<FinishPlan> {
  const plan = emptyPlan(request);
  const refuse = (why: string) => plan.refusals.push(why);
  const gitProblem = await mergeTreeProblem();
  if (gitProblem !== null) return { ...plan, refusals: [gitProblem] };
  try {
    await planChecks(request, plan, refuse);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    refuse(`git could not answer: ${errorMessage(error)}`);
  }
  if (request.mode !== 'pr') {
    if (request.others.length > 0) plan.keepWorktree = `also used by ${request.others.join('; ')}`;
    else if (request.keepWorktree) plan.keepWorktree = '--keep-worktree';
    if (request.keepBranch) plan.keepBranch = '--keep-branch';
    else if (plan.keepWorktree !== null) plan.keepBranch = 'its worktree stays (a checked-out branch is never deleted)';
  }
  return plan;
}

async function planChecks(request: FinishRequest, plan: FinishPlan, refuse: (why: string) => void): Promise<void> {
  const { record } = request;
  const listed = await listWorktrees(record.repo);
  const at = listed.find((w) => !w.main && (w.path === record.path || realPath(w.path) === realPath(record.path)));
  if (at === undefined || at.prunable !== null) {
    refuse(`git does not list ${record.path} as a linked worktree of ${record.repo}${at ? ' (its directory is gone)' : ''}`);
    return;
  }
  if (at.branch !== record.branch) {
    refuse(`the worktree ${record.path} is on ${at.branch === null ? 'a detached HEAD' : `branch ${at.branch}`}, not on its branch ${record.branch}`);
    return;
  }
  const busy = await operationInProgress(record.path);
  if (busy !== null) refuse(`${busy} is in progress in the worktree ${record.path} (finish or abort it there first)`);
  const dirty = await uncommitted(record.path);
  const head = (await git(['-C', record.path, 'rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  plan.head = head;
  plan.tip = head;
  if (dirty.length > 0 && request.commitMessage === null) {
    const names = dirty.slice(0, 5).map((l) => l.slice(3)).join(', ');
    refuse(`the worktree ${record.path} has ${dirty.length} uncommitted file(s) (${names}${dirty.length > 5 ? ', …' : ''}); commit them, or --commit MSG commits them first`);
  } else if (dirty.length > 0 && request.commitMessage !== null) {
    plan.commitFirst = { message: request.commitMessage, files: dirty.map((l) => l.slice(3)) };
    // The commit --commit will make, made here as an object no ref names: what is merged is known now.
    const env = await identityEnv(record.path);
    const tree = await checkoutTree(record.path, env);
    plan.tip = (await git(['-C', record.path, '-c', 'commit.gpgSign=false', 'commit-tree', tree, '-p', head, '-m', request.commitMessage], { env })).trim();
  } else if (request.commitMessage !== null) plan.notes.push('--commit: nothing is uncommitted, so nothing is committed first');

  const resolved = await resolveInto(record, request.into, listed);
  if (resolved === null) {
    refuse(`no branch to finish ${record.branch} into: its base ${record.baseRef ?? short(record.base)} is no branch and the repository has no default branch; --into BRANCH names one`);
    return;
  }
  plan.into = resolved.into;
  plan.intoSource = resolved.source;
  const intoTip = await commitOf(record.repo, `refs/heads/${resolved.into}`);
  if (intoTip === null) {
    refuse(`branch ${resolved.into} does not exist in ${record.repo}`);
    return;
  }
  if (resolved.into === record.branch) {
    refuse(`--into ${resolved.into} is the task's own branch`);
    return;
  }
  plan.intoTip = intoTip;
  plan.commits = await commitsToMerge(record.repo, intoTip, plan.tip);
  if (request.mode === 'pr') return planPr(request, plan, refuse);

  const target = checkoutOf(listed, resolved.into);
  if (target === null) {
    refuse(`branch ${resolved.into} is checked out nowhere; fleetcom merges in the checkout that holds it: check it out (git -C ${record.repo} switch ${resolved.into}) or name another with --into`);
    return;
  }
  plan.target = target.path;
  const problem = await checkoutProblem(target.path, `the checkout of ${resolved.into}`);
  if (problem !== null) refuse(problem);
  if (plan.commits.length === 0) {
    plan.alreadyIn = true;
    plan.tree = await treeOf(record.repo, intoTip);
    return;
  }
  if (request.mode === 'rebase') {
    const played = await playRebase(record.repo, intoTip, plan.tip, await identityEnv(record.repo));
    if (!played.clean) {
      refuse(`rebasing ${record.branch} onto ${resolved.into} conflicts at ${short(played.at.sha)} "${played.at.subject}" in: ${played.conflicts.join(', ')} (resolve it on the branch first, e.g. git rebase ${resolved.into} in its worktree)`);
      return;
    }
    plan.tree = played.tree;
  } else {
    const merged = await mergeTree(record.repo, intoTip, plan.tip);
    if (!merged.clean) {
      refuse(`merging ${record.branch} into ${resolved.into} conflicts in: ${merged.conflicts.join(', ')} (resolve it on the branch first, e.g. git merge ${resolved.into} in its worktree)`);
      return;
    }
    plan.tree = merged.tree;
  }
  const intoTree = await treeOf(record.repo, intoTip);
  if (plan.tree === intoTree && request.mode !== 'merge') plan.alreadyIn = true;
  const hit = collisions(await untrackedFiles(target.path), await changedPaths(record.repo, intoTree, plan.tree));
  if (hit.length > 0) refuse(`the checkout of ${resolved.into} ${target.path} has untracked files the merge would overwrite: ${hit.slice(0, 5).join(', ')}${hit.length > 5 ? ', …' : ''}; move them first`);
}

async function planPr(request: FinishRequest, plan: FinishPlan, refuse: (why: string) => void): Promise<void> {
  const { record } = request;
  if (plan.commits.length === 0) {
    refuse(`branch ${record.branch} has no commit that ${plan.into} lacks: nothing to propose`);
    return;
  }
  const merged = await mergeTree(record.repo, plan.intoTip!, plan.tip!);
  if (!merged.clean) plan.conflicts = merged.conflicts;
  const pr = await planPullRequest(record, plan.into!, plan.commits, request.gh);
  if ('refused' in pr) refuse(pr.refused);
  else plan.pr = pr;
}
