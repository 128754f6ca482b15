// `f` in the dashboard: a worktree task's diff stat and its finish plan (`fleetcom finish TASK
// --dry-run`: merge into its base branch), and on `y` the finish itself — planned again first,
// and carried out only when the branch and its target are where the shown plan had them.
import type { FleetUiContext as ActionDeps } from '../fleet/lifecycle/fleet-ui.js';
import type { Task } from '../fleet/supervisor/task.js';
import { otherFleetsIn, usesWorktree } from '../fleet/lifecycle/fleet-index.js';
import { fleetIndexFile, fleetRuntime, worktreeRegistryFile } from '../paths.js';
import { errorMessage } from '../errors.js';
import { worktreeDiff } from '../worktrees/diff.js';
import { carryOut } from '../worktrees/finish.js';
import { planFinish, type FinishPlan } from '../worktrees/finish-plan.js';
import { planLines, type FinishTask } from '../worktrees/finish-report.js';
import type { FinishShown } from './model.js';

/** What the shown plan counted on: the finish goes ahead only while these hold. */
export interface FinishExpect {
  tip: string | null;
  intoTip: string | null;
}

/** The task with the conversation it holds, as `ls` resolves it. */
async function about(task: Task, deps: ActionDeps): Promise<FinishTask> {
  const listed = (await deps.fleet.handle({ op: 'ls' })).find((t) => t.id === task.id);
  const id = listed?.conversationId ?? null;
  return { id: task.id, conversation: listed?.harness && id !== null ? `${listed.harness} ${id}` : null };
}

async function plan(task: Task, deps: ActionDeps): Promise<FinishPlan> {
  const record = task.worktree!;
  const others = [
    ...[...deps.fleet.tasks()].filter((t) => t.id !== task.id && usesWorktree({ id: t.id, cwd: t.cwd, worktree: t.worktree?.path ?? null }, record.path)).map((t) => `task ${t.id}`),
    ...otherFleetsIn(fleetIndexFile(deps.env), deps.env, fleetRuntime(deps.env).dir, record.path),
  ];
  return planFinish({ record, mode: 'merge', into: null, commitMessage: null, keepWorktree: false, keepBranch: false, others, gh: null });
}

const taskOf = (id: number, deps: ActionDeps) => [...deps.fleet.tasks()].find((t) => t.id === id);

/** The diff stat and the plan, for the confirmation screen; a status line when there is nothing to finish. */
export async function finishPlanShown(id: number, deps: ActionDeps): Promise<{ finish: FinishShown } | { status: string }> {
  const task = taskOf(id, deps);
  if (task === undefined) return { status: `task ${id} is gone` };
  if (!task.worktree) return { status: `task ${id} runs in no worktree fleetcom made: nothing to finish` };
  const planned = await plan(task, deps);
  const stat = await worktreeDiff(task.worktree, { stat: true, color: false }).catch((error: unknown) => `(no diff: ${errorMessage(error)})`);
  const lines = [...stat.split('\n').filter((l) => l.trim() !== ''), '', ...planLines(planned, await about(task, deps))];
  return { finish: { taskId: id, lines, ok: planned.refusals.length === 0, expect: { tip: planned.tip, intoTip: planned.intoTip } } };
}

/** `y` on the plan: planned again, then carried out; the status line says how it ended. */
export async function finishConfirmed(id: number, expect: FinishExpect, deps: ActionDeps): Promise<string> {
  const task = taskOf(id, deps);
  if (task === undefined || !task.worktree) return `task ${id} is gone or runs in no worktree: nothing done`;
  const planned = await plan(task, deps);
  if (planned.refusals.length > 0) return `task ${id} not finished: ${planned.refusals[0]}`;
  if (planned.tip !== expect.tip || planned.intoTip !== expect.intoTip) return `task ${id}: its branch or ${planned.into} moved since the plan was shown: nothing done, press f again`;
  const result = await carryOut(planned, {
    removeTask: async () => {
      await deps.fleet.handle({ op: 'rm', task: String(id) });
    },
    say: deps.log,
    registryFile: worktreeRegistryFile(deps.env),
    now: new Date(deps.now()),
  });
  if (result.error !== null) return `task ${id}: finish stopped: ${result.error}`;
  const kept = result.kept.length > 0 ? ` (${result.kept.join('; ')})` : '';
  return `task ${id} finished: ${task.worktree.branch} in ${planned.into}${result.landed ? ` at ${result.landed.commit.slice(0, 12)}` : ''}, task removed${kept}`;
}
