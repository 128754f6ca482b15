// `fleetcom finish TASK [--merge | --squash | --rebase | --pr] [--into BRANCH] [--commit MSG]
// [--keep-worktree] [--keep-branch] [--dry-run] [--json]`: a worktree task's branch merged into
// its target (or proposed as a pull request), then the task, its worktree and its branch
// cleaned up — every check first, the plan said, and the first failing step ending it with
// nothing deleted (worktrees/finish*.ts). git and gh run here, in the caller's process, with
// the caller's configuration; the supervisor only stops and removes the task.
import type { LsRecord } from '../../control/protocol.js';
import type { Deps } from '../../deps.js';
import { FleetError, UsageError } from '../../errors.js';
import { otherFleetsIn, usesWorktree } from '../../fleet/lifecycle/fleet-index.js';
import { fleetIndexFile, fleetRuntime, worktreeRegistryFile } from '../../paths.js';
import { worktreeRecord } from '../../worktree-record.js';
import { carryOut, type FinishResult } from '../../worktrees/finish.js';
import { planFinish, type FinishMode } from '../../worktrees/finish-plan.js';
import { planJson, planLines, type FinishTask } from '../../worktrees/finish-report.js';
import { findOnPath } from '../../worktrees/gh.js';
import { ask } from '../ask.js';
import { taskOf } from './worktree-rm.js';

export interface FinishOptions {
  merge?: boolean;
  squash?: boolean;
  rebase?: boolean;
  pr?: boolean;
  into?: string;
  commit?: string;
  keepWorktree?: boolean;
  keepBranch?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

const MODES: readonly FinishMode[] = ['merge', 'squash', 'rebase', 'pr'];

/** The mode the flags name (default merge); a usage error for two, or for flags that do not go together. */
export function finishMode(opts: FinishOptions): FinishMode {
  const modes = MODES.filter((m) => opts[m] === true);
  if (modes.length > 1) throw new UsageError(`${modes.map((m) => `--${m}`).join(' and ')}: choose one`);
  const mode = modes[0] ?? 'merge';
  if (mode === 'pr' && (opts.keepWorktree || opts.keepBranch)) throw new UsageError('--pr keeps the task, its worktree and its branch; --keep-worktree and --keep-branch go with a merge');
  if (opts.commit !== undefined && opts.commit.trim() === '') throw new UsageError('--commit needs a message');
  return mode;
}

/** The task as a finish names it: its id and the conversation it holds. */
export function finishTask(task: Pick<LsRecord, 'id' | 'harness' | 'conversationId'>): FinishTask {
  return { id: task.id, conversation: task.harness !== null && task.conversationId !== null ? `${task.harness} ${task.conversationId}` : null };
}

export function resultJson(result: FinishResult): Record<string, unknown> {
  return {
    done: result.done, committed: result.committed, merged: result.landed?.commit ?? null, treeAsPlanned: result.landed?.treeAsPlanned ?? null,
    rebasedFrom: result.landed?.rebasedFrom ?? null, pullRequest: result.pullRequest, taskRemoved: result.taskRemoved,
    worktreeRemoved: result.worktreeRemoved, branchDeleted: result.branchDeleted, kept: result.kept, error: result.error,
  };
}

export async function runFinish(ref: string, opts: FinishOptions, deps: Deps): Promise<number> {
  const mode = finishMode(opts);
  const tasks = await ask(deps, { op: 'ls' });
  const task = taskOf(tasks, ref);
  if (!task.worktree) throw new FleetError(`task ${task.id} runs in no worktree fleetcom made; nothing to finish`);
  const record = worktreeRecord(task.worktree);
  // Another task in it — of this fleet or of another of the user's — keeps the worktree.
  const others = [
    ...tasks.filter((t) => t.id !== task.id && usesWorktree({ id: t.id, cwd: t.cwd, worktree: t.worktree?.path ?? null }, record.path)).map((t) => `task ${t.id}`),
    ...(mode === 'pr' ? [] : otherFleetsIn(fleetIndexFile(deps.env), deps.env, fleetRuntime(deps.env).dir, record.path)),
  ];
  const plan = await planFinish({
    record, mode, into: opts.into ?? null, commitMessage: opts.commit ?? null,
    keepWorktree: opts.keepWorktree === true, keepBranch: opts.keepBranch === true, others,
    gh: mode === 'pr' ? findOnPath('gh', deps.env.PATH) : null,
  });
  const about = finishTask(task);
  const lines = planLines(plan, about);
  const refused = plan.refusals.length > 0;
  if (opts.dryRun || refused) {
    if (opts.json) deps.stdout.write(`${JSON.stringify({ plan: planJson(plan, about), result: null }, null, 2)}\n`);
    else (opts.dryRun ? deps.stdout : deps.stderr).write(`${lines.join('\n')}\n`);
    return refused ? 1 : 0;
  }
  for (const line of lines) deps.stderr.write(`${line}\n`);
  const result = await carryOut(plan, {
    removeTask: async () => {
      await ask(deps, { op: 'rm', task: String(task.id) });
      deps.stderr.write(`stopped and removed task ${task.id}${about.conversation === null ? '' : `; its conversation (${about.conversation}) stays in the agent's store: fleetcom history lists it`}\n`);
    },
    say: (line) => deps.stderr.write(`${line}\n`),
    registryFile: worktreeRegistryFile(deps.env),
    now: new Date(deps.now()),
  });
  if (result.error !== null) deps.stderr.write(`fleetcom: finish stopped: ${result.error}\n`);
  if (opts.json) deps.stdout.write(`${JSON.stringify({ plan: planJson(plan, about), result: resultJson(result) }, null, 2)}\n`);
  else {
    const data = result.pullRequest?.url ?? result.landed?.commit ?? null;
    if (data !== null) deps.stdout.write(`${data}\n`);
  }
  return result.error === null ? 0 : 1;
}
