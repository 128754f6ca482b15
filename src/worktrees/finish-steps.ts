// The steps of a finish that change something, each with the user's git (their hooks, their
// signing): the work committed (--commit), then the branch landed in the target — merged,
// squashed or rebased and fast-forwarded. A step that fails puts back what it began (an
// aborted merge, a reset squash, an aborted rebase, the index as it was) and throws: the
// caller deletes nothing after it.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FleetError } from '../errors.js';
import type { FinishPlan } from './finish-plan.js';
import { operationInProgress } from './finish-target.js';
import { git, gitReason, runGit, type GitResult } from './git.js';
import { treeOf, type Commit } from './merge-check.js';

/** Hooks and signing may take a while (a test suite in pre-commit, a hardware key). */
const STEP_DEADLINE = { deadlineMs: 600_000 };

/** git's own merge message: `Merge branch 'x'`, `… into y` unless into main or master. */
export function mergeMessage(branch: string, into: string): string {
  return `Merge branch '${branch}'${into === 'main' || into === 'master' ? '' : ` into ${into}`}`;
}

/** The squash commit's message: one commit's subject (else the branch), then every commit. */
export function squashMessage(branch: string, commits: readonly Commit[]): string {
  const subject = commits.length === 1 ? commits[0]!.subject : `Merge branch '${branch}' (${commits.length} commits squashed)`;
  return `${subject}\n\nSquashed from branch '${branch}':\n${commits.map((c) => `- ${c.sha.slice(0, 12)} ${c.subject}`).join('\n')}\n`;
}

const reasonOf = (r: GitResult) => gitReason(r.stderr.trim() === '' ? r.stdout : r.stderr);

async function gitPath(dir: string, name: string): Promise<string> {
  return path.resolve(dir, (await git(['-C', dir, 'rev-parse', '--git-path', name])).trim());
}

/** `dir` has `branch` checked out at `commit`, as planned; else nothing is done. */
async function expectHead(dir: string, branch: string, commit: string): Promise<void> {
  const ref = (await runGit(['-C', dir, 'symbolic-ref', '--quiet', 'HEAD'])).stdout.trim();
  const head = (await runGit(['-C', dir, 'rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).stdout.trim();
  if (ref !== `refs/heads/${branch}` || head !== commit) {
    throw new FleetError(`${dir} is no longer on ${branch} at ${commit.slice(0, 12)} as planned (now ${ref || 'detached'} at ${head.slice(0, 12) || '?'}); nothing was changed: finish again`);
  }
}

/** --commit: stages everything and commits it in the worktree; the new tip. The index is put back on failure. */
export async function commitWork(plan: FinishPlan): Promise<string> {
  const dir = plan.record.path;
  await expectHead(dir, plan.record.branch, plan.head!);
  const index = await gitPath(dir, 'index');
  const keep = mkdtempSync(path.join(tmpdir(), 'fleetcom-index-'));
  const saved = path.join(keep, 'index');
  try {
    if (existsSync(index)) copyFileSync(index, saved);
    try {
      await git(['-C', dir, 'add', '--all', '--', ':/'], { deadlineMs: 120_000 });
      const r = await runGit(['-C', dir, 'commit', '--quiet', '-F', '-'], { ...STEP_DEADLINE, input: plan.commitFirst!.message });
      if (r.code !== 0) throw new FleetError(`git commit failed: ${reasonOf(r)}`);
    } catch (error) {
      if (existsSync(saved)) copyFileSync(saved, index);
      throw new FleetError(`--commit: ${(error as Error).message}; the worktree's files and index are as they were, nothing was merged or deleted`);
    }
  } finally {
    rmSync(keep, { recursive: true, force: true });
  }
  return (await git(['-C', dir, 'rev-parse', '--verify', 'HEAD^{commit}'])).trim();
}

export interface Landed {
  /** The target's tip after the step. */
  commit: string;
  /** Its tree is the one the plan computed. */
  treeAsPlanned: boolean;
  /** --rebase: the branch's tip before it was rebased. */
  rebasedFrom: string | null;
}

/** Merges, squashes or rebases `tip` into the plan's target; throws (having put back what it began) on failure. */
export async function landBranch(plan: FinishPlan, tip: string): Promise<Landed> {
  const { record } = plan;
  const into = plan.into!;
  const target = plan.target!;
  let rebasedFrom: string | null = null;
  let land = tip;
  // The target is checked before the branch is rewritten, and again after it.
  await expectHead(target, into, plan.intoTip!);
  if (plan.mode === 'rebase') {
    rebasedFrom = tip;
    land = await rebase(plan, tip);
    await expectHead(target, into, plan.intoTip!).catch((error: unknown) => {
      const moved = (error as Error).message.replace(/; nothing was changed: finish again$/, '');
      throw new FleetError(`${moved}; nothing was merged or deleted, but ${record.branch} was rebased onto it: git -C ${record.path} reset --keep ${tip.slice(0, 12)} puts it back, then finish again`);
    });
  }
  if (plan.mode === 'squash') await squash(plan, land);
  else {
    const args = plan.mode === 'rebase' ? ['merge', '--ff-only', land] : ['merge', '--no-edit', '-m', mergeMessage(record.branch, into), land];
    const r = await runGit(['-C', target, ...args], STEP_DEADLINE);
    if (r.code !== 0) {
      const aborted = (await operationInProgress(target)) === 'a merge' && (await runGit(['-C', target, 'merge', '--abort'])).code === 0;
      const rebased = rebasedFrom === null ? '' : ` (${record.branch} was rebased onto ${into}; it was at ${rebasedFrom.slice(0, 12)} before)`;
      throw new FleetError(`git ${args.slice(0, 2).join(' ')} in ${target} failed: ${reasonOf(r)}; ${aborted ? 'the merge was aborted and ' : ''}${into} is as it was${rebased}; nothing was deleted`);
    }
  }
  const commit = (await git(['-C', target, 'rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  return { commit, treeAsPlanned: (await treeOf(record.repo, commit)) === plan.tree, rebasedFrom };
}

async function squash(plan: FinishPlan, tip: string): Promise<void> {
  const target = plan.target!;
  const message = await gitPath(target, 'SQUASH_MSG');
  const hadMessage = existsSync(message);
  const putBack = async (why: string): Promise<never> => {
    const reset = await runGit(['-C', target, 'reset', '--quiet', '--merge']);
    if (!hadMessage) rmSync(message, { force: true });
    throw new FleetError(`${why}; ${reset.code === 0 ? `${plan.into} and its checkout are as they were` : `git reset --merge failed too (${reasonOf(reset)}): look at ${target}`}; nothing was deleted`);
  };
  const staged = await runGit(['-C', target, 'merge', '--squash', tip], STEP_DEADLINE);
  if (staged.code !== 0) await putBack(`git merge --squash in ${target} failed: ${reasonOf(staged)}`);
  const committed = await runGit(['-C', target, 'commit', '--quiet', '-F', '-'], { ...STEP_DEADLINE, input: squashMessage(plan.record.branch, plan.commits) });
  if (committed.code !== 0) await putBack(`git commit of the squash in ${target} failed: ${reasonOf(committed)}`);
}

/** Rebases the branch in its worktree onto the target's tip; the new tip. An unfinished rebase is aborted. */
async function rebase(plan: FinishPlan, tip: string): Promise<string> {
  const dir = plan.record.path;
  await expectHead(dir, plan.record.branch, tip);
  const r = await runGit(['-C', dir, 'rebase', '--quiet', '--no-autostash', plan.intoTip!], STEP_DEADLINE);
  if (r.code !== 0) {
    const aborted = (await operationInProgress(dir)) !== null && (await runGit(['-C', dir, 'rebase', '--abort'])).code === 0;
    throw new FleetError(`git rebase in ${dir} failed: ${reasonOf(r)}; ${aborted ? `the rebase was aborted, ${plan.record.branch} is as it was` : `look at ${dir}`}; nothing was merged or deleted`);
  }
  const rebased = (await git(['-C', dir, 'rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  if ((await treeOf(plan.record.repo, rebased)) !== plan.tree) {
    throw new FleetError(`the rebased ${plan.record.branch} (${rebased.slice(0, 12)}) does not hold the tree the plan computed; nothing was merged or deleted (it was at ${tip.slice(0, 12)} before: git -C ${dir} reset --keep ${tip.slice(0, 12)} puts it back)`);
  }
  return rebased;
}
