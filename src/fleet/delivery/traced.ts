// The conversation a task's own agent process holds, by the traces its harness reads (codex:
// the rollout its process tree holds open): what a send confirms against while the task's id is
// not known yet (a fresh codex names its thread only in the notify that ends its first turn).
// Only the task's pane's processes are looked at: never another file of the store.
import { harnessFor } from '../../harness/index.js';
import { PROC_ROOT, processTree } from '../../ownership/index.js';
import { agentProcess, agentsUnder } from '../agent-panes/agent-process.js';
import type { FleetState } from '../supervisor/fleet-state.js';
import type { Task } from '../supervisor/task.js';

export function tracedConversation(fleet: FleetState, task: Task): string | null {
  const panePid = fleet.tasks.panePid(task);
  if (panePid === null || task.harness === null || task.home === null) return null;
  const proc = fleet.deps.procRoot ?? PROC_ROOT;
  const tree = processTree(proc);
  if (tree === null) return null;
  const match = agentsUnder(proc, tree, panePid).find((m) => m.agent === task.harness);
  if (match === undefined) return null;
  const process = agentProcess(proc, tree, match);
  if ('unreadable' in process) return null;
  const traces = harnessFor(task.harness).probe.traces(process, task.home);
  return traces.conversation.kind === 'id' ? traces.conversation.id : null;
}
