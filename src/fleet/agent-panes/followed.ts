// An adopted run follows the agent process someone started by hand: its end is the run's end
// even when the shell it runs under lives on, and while it runs its own traces are read again
// at each reconciliation (claude rewrites its registry record on /clear: the task follows it
// into the new conversation; its status is the task's attention).
import { harnessFor, resolveHome } from '../../harness/index.js';
import { processFacts, subtreeOf, treeProcess } from '../../ownership/index.js';
import type { FleetState } from '../supervisor/fleet-state.js';
import type { Followed } from '../supervisor/task-record.js';
import type { Task } from '../supervisor/task.js';
import { agentOf, agentProcess } from './agent-process.js';
import { freshHint } from './hints-before.js';

/** The followed process still runs: the same pid with the same start tick, not a zombie. */
export function followedRuns(proc: string, followed: Pick<Followed, 'pid' | 'start'>): boolean {
  const entry = treeProcess(proc, followed.pid);
  return entry !== null && entry.start === followed.start && entry.state !== 'Z' && entry.state !== 'X';
}

/** The followed agent is not the pane's own process: the pane's shell outlives it. */
export function underShell(task: Task, panePid: number | null): boolean {
  return Boolean(task.followed) && panePid !== null && task.followed?.pid !== panePid;
}

/**
 * What still runs under the shell of an adopted pane whose agent ended (a rerun replaces the
 * shell with the agent's resume command only when nothing does), as `pid 12 vim notes.md`; null
 * when the shell has no child left.
 */
export function shellChildren(proc: string, panePid: number): string | null {
  const tree = subtreeOf(proc, panePid);
  if (tree === null) return null; // the shell is gone too: nothing left to kill
  const children = [...tree.values()].filter((c) => c.ppid === panePid && c.pid !== panePid && c.state !== 'Z' && c.state !== 'X');
  if (children.length === 0) return null;
  return children.map((c) => `pid ${c.pid} ${(processFacts(proc, c.pid).argv ?? ['?']).join(' ').slice(0, 60)}`).join(', ');
}

/** The run's exit hint in its pane's text: for an adopted run, only one beyond those the pane held before. */
export function exitHintOf(task: Task, text: string): string | null {
  if (task.harness === null) return null;
  if (task.followed) return freshHint(task.harness, text, task.followed);
  return harnessFor(task.harness).scrapeExit(text);
}

/**
 * Reads the traces of the followed processes of running tasks again: a new conversation id
 * (claude's /clear) becomes the task's, the one it left among those it ever held; the status
 * claude records becomes its attention. True when a task's record changed.
 */
export async function refreshTraces(fleet: FleetState, tasks: readonly Task[], proc: string): Promise<boolean> {
  const followed = tasks.filter((t) => t.followed && t.endedAt === null && t.harness !== null && t.home !== null);
  let changed = false;
  for (const task of followed) {
    const tree = subtreeOf(proc, task.followed!.pid);
    const top = tree?.get(task.followed!.pid);
    if (!tree || top === undefined || top.start !== task.followed!.start) continue;
    const match = agentOf(proc, top);
    if (match === null) continue;
    const process = agentProcess(proc, tree, match);
    if ('unreadable' in process) continue;
    let home: string;
    try {
      home = resolveHome(match.agent, process.env);
    } catch {
      home = task.home!;
    }
    const traces = harnessFor(task.harness!).probe.traces(process, home);
    const held = traces.conversation;
    if (held.kind === 'id' && held.id !== task.tracedId) {
      if (task.tracedId) task.everHeld = [...new Set([...task.everHeld, task.tracedId])];
      fleet.deps.log(`task ${task.id} is in conversation ${held.id} now (${held.from})`);
      task.tracedId = held.id;
      changed = true;
    }
    await fleet.applyAttention(fleet.attention.reported(task, traces.attention), { rename: false });
  }
  return changed;
}
