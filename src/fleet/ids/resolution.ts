// Which conversation each task of a fleet is in: precedence 1-3 for ls and rerun, and the
// full precedence with store correlation for a save. Pure but for the harness's file reads.
import { harnessFor, resolveId, rewriteCommand, type Resolved } from '../../harness/index.js';
import type { RecipeTask } from '../../control/protocol.js';
import { evidenceOf, type Task } from '../supervisor/task.js';

/** Each task's id by precedence 1-3 (with the section 8 checks), resolved afresh. */
export function currentIds(tasks: Iterable<Task>, now: number): Map<number, Resolved | null> {
  const none = new Set<string>();
  const ids = new Map<number, Resolved | null>();
  for (const task of tasks) {
    const evidence = evidenceOf(task);
    ids.set(task.id, evidence ? resolveId(evidence, { now, correlate: false, heldByOthers: none, everHeld: none }) : null);
  }
  return ids;
}

/**
 * The fleet as recipe entries, agents as their resume commands (precedence 1-4). A task with
 * no known command (adopted from a bare window) is left out: its window name is no command.
 */
export function recipeOf(fleet: readonly Task[], now: number): RecipeTask[] {
  const tasks = fleet.filter((t): t is Task & { command: string } => t.command !== null);
  const current = currentIds(tasks, now);
  const everHeld = new Set(tasks.flatMap((t) => t.everHeld));
  const correlated = new Map<number, string>();
  for (const task of tasks) {
    const evidence = evidenceOf(task);
    if (!evidence || current.get(task.id)) continue;
    const heldByOthers = new Set([...current].filter(([other, r]) => other !== task.id && r).map(([, r]) => r!.id));
    const id = resolveId(evidence, { now, correlate: true, heldByOthers, everHeld })?.id;
    if (id) correlated.set(task.id, id);
  }
  // One store entry matched by two tasks (say two codex in one directory, one of which
  // talked) is ambiguous for both: neither may resume a conversation that may be the other's.
  const claims = [...correlated.values()];
  const shared = (id: string) => claims.indexOf(id) !== claims.lastIndexOf(id);
  return tasks.map((task) => {
    const viaStore = correlated.get(task.id);
    const id = current.get(task.id)?.id ?? (viaStore && !shared(viaStore) ? viaStore : null);
    return { cwd: task.cwd, cmd: rewriteCommand(task.command, id), name: task.name, group: task.group, ...homesOf(task), ...(task.worktree ? { worktree: task.worktree } : {}) };
  });
}

/** The agent home a task runs with; the writer drops it when it is HOME's default. */
function homesOf(task: Task): Pick<RecipeTask, 'env'> {
  return task.harness && task.home ? { env: harnessFor(task.harness).home.varsFor(task.home) } : {};
}
