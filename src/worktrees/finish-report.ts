// What a finish will do and did, in words (the plan `--dry-run` prints, the dashboard's `f`
// shows) and as one JSON document (`--json`). Pure.
import type { FinishPlan } from './finish-plan.js';

/** The task the plan finishes, as the fleet knows it. */
export interface FinishTask {
  id: number;
  /** `claude 0b6f…` when the task holds a conversation, else null. */
  conversation: string | null;
}

const SOURCE = { flag: '--into', base: 'the branch it was based on', default: "the repository's default branch" } as const;
const short = (sha: string | null) => (sha ?? '').slice(0, 12);

function commitLines(plan: FinishPlan): string[] {
  const shown = plan.commits.slice(0, 10).map((c) => `       ${short(c.sha)} ${c.subject}`);
  return plan.commits.length > 10 ? [...shown, `       … and ${plan.commits.length - 10} more`] : shown;
}

function landLine(plan: FinishPlan): string {
  const n = `${plan.commits.length} commit(s)`;
  if (plan.alreadyIn) return `nothing to merge: the work of ${plan.record.branch} is in ${plan.into} already`;
  switch (plan.mode) {
    case 'merge':
      return `merge ${n} into ${plan.into} in ${plan.target} (git merge; no conflict):`;
    case 'squash':
      return `squash ${n} into one commit on ${plan.into} in ${plan.target} (git merge --squash, git commit; no conflict):`;
    default:
      return `rebase ${n} onto ${plan.into} in the worktree, then fast-forward ${plan.into} in ${plan.target} (no conflict):`;
  }
}

/** The plan in words: one numbered line per step, then why it cannot go on (if it cannot). */
export function planLines(plan: FinishPlan, task: FinishTask): string[] {
  const { record } = plan;
  const into = plan.into === null ? '?' : `${plan.into} (${plan.intoSource === null ? '' : SOURCE[plan.intoSource]})`;
  const lines = [plan.mode === 'pr'
    ? `task ${task.id}: propose branch ${record.branch} for ${into} as a pull request`
    : `task ${task.id}: finish branch ${record.branch} into ${into} by ${plan.mode}`];
  const steps: string[] = [];
  if (plan.commitFirst !== null) {
    const files = plan.commitFirst.files;
    steps.push(`commit ${files.length} uncommitted file(s) in ${record.path} as ${JSON.stringify(plan.commitFirst.message)}: ${files.slice(0, 5).join(', ')}${files.length > 5 ? ', …' : ''}`);
  }
  if (plan.mode === 'pr') {
    if (plan.pr !== null) {
      steps.push(`push ${record.branch} to ${plan.pr.remote} (${plan.pr.url})`);
      steps.push(plan.pr.gh !== null
        ? `open a pull request with gh (${plan.pr.gh}) into ${plan.into}: ${JSON.stringify(plan.pr.title)}`
        : plan.pr.compareUrl !== null ? `print the page that opens the pull request (gh is not installed): ${plan.pr.compareUrl}` : `say where to open the pull request (gh is not installed, and ${plan.pr.url} is no web host's URL)`);
    }
    lines.push(...steps.map((s, i) => `  ${i + 1}. ${s}`), ...commitLines(plan), `  task ${task.id} and its worktree stay (the conversation goes on while the pull request is reviewed)`);
    if (plan.conflicts.length > 0) lines.push(`  note: merging it into ${plan.into} now would conflict in: ${plan.conflicts.join(', ')}`);
  } else {
    steps.push(landLine(plan));
    const landAt = steps.length;
    steps.push(`stop and remove task ${task.id}${task.conversation === null ? '' : ` (its conversation, ${task.conversation}, stays in the agent's store: fleetcom history lists it)`}`);
    steps.push(plan.keepWorktree === null ? `remove the worktree ${record.path} (if it is still clean then)` : `keep the worktree ${record.path}: ${plan.keepWorktree}`);
    steps.push(plan.keepBranch === null ? `delete branch ${record.branch} once it is merged into ${plan.into ?? 'its target'}` : `keep branch ${record.branch}: ${plan.keepBranch}`);
    steps.forEach((s, i) => {
      lines.push(`  ${i + 1}. ${s}`);
      if (i + 1 === landAt && !plan.alreadyIn) lines.push(...commitLines(plan));
    });
  }
  for (const note of plan.notes) lines.push(`  note: ${note}`);
  if (plan.refusals.length > 0) lines.push('refused, nothing changed:', ...plan.refusals.map((r) => `  - ${r}`));
  return lines;
}

/** The plan as `--json` prints it (camelCase, stable keys). */
export function planJson(plan: FinishPlan, task: FinishTask): Record<string, unknown> {
  return {
    task: task.id, mode: plan.mode, ok: plan.refusals.length === 0,
    repo: plan.record.repo, worktree: plan.record.path, branch: plan.record.branch,
    into: plan.into, intoSource: plan.intoSource, target: plan.target,
    tip: plan.tip, intoTip: plan.intoTip, commitFirst: plan.commitFirst,
    commits: plan.commits, tree: plan.tree, alreadyIn: plan.alreadyIn, conflicts: plan.conflicts,
    pullRequest: plan.pr === null ? null : { remote: plan.pr.remote, url: plan.pr.url, gh: plan.pr.gh !== null, compareUrl: plan.pr.compareUrl, title: plan.pr.title },
    keepWorktree: plan.keepWorktree, keepBranch: plan.keepBranch, notes: plan.notes, refusals: plan.refusals,
  };
}
