// No conversation is resumed while it is open elsewhere: two processes appending to one
// transcript corrupt it (claude happily runs `--resume <id>` of a conversation another pane
// holds). load, recover and rerun ask here before they spawn.
import { detect, rebindResume, resolveHome, type HarnessName, type Resolved } from '../../harness/index.js';
import { conversationLiveness, fleetHolderOf, holderText, sharedOpenFiles, type FleetHolder, type LivenessOptions } from '../../ownership/index.js';
import type { Task } from '../supervisor/task.js';
import type { Warning } from '../../warnings.js';

export type Holding =
  | { by: 'task'; task: FleetHolder }
  | { by: 'process'; where: string };

/** Running tasks and the conversation each holds now (precedence 1-3, or the one it was started on). */
export function fleetHolders(tasks: Iterable<Task>, current: ReadonlyMap<number, Resolved | null>): FleetHolder[] {
  const holders: FleetHolder[] = [];
  for (const task of tasks) {
    if (task.endedAt !== null) continue;
    const ids = new Set([current.get(task.id)?.id, task.targetId, task.captured, task.tracedId].filter((id): id is string => typeof id === 'string'));
    for (const conversationId of ids) holders.push({ taskId: task.id, windowId: task.windowId, paneId: task.paneId, conversationId });
  }
  return holders;
}

/** What a launch takes from a spec: its command, directory and environment. */
export interface Start {
  command: string;
  cwd: string;
  env: Readonly<Record<string, string>>;
}

/**
 * The conversation a start would resume, as launch.ts runs it: a command naming a child's
 * (a codex subagent thread) resumes its root. `home` is null when the environment names none
 * (the start then fails on its own, with a clearer message); null for no resume.
 */
export function resumedBy(start: Start): { harness: HarnessName; home: string | null; id: string } | null {
  const requested = detect(start.command);
  if (requested.form !== 'resume') return null;
  let home: string;
  try {
    home = resolveHome(requested.harness, start.env);
  } catch {
    return { harness: requested.harness, home: null, id: requested.targetId };
  }
  const rebound = rebindResume(start.command, { home, cwd: start.cwd });
  const id = rebound ? rebound.targetId : requested.targetId;
  return id === null ? null : { harness: requested.harness, home, id };
}

/**
 * Who holds the conversation a start would resume, or null when it resumes none or nobody
 * provably holds it ("unknown" does not stop a start: it is not evidence of a holder).
 */
export function holderOf(start: Start, fleet: readonly FleetHolder[], opts: LivenessOptions & { except?: number } = {}): Holding | null {
  const target = resumedBy(start);
  if (target === null) return null;
  const task = fleet.find((t) => t.conversationId === target.id && t.taskId !== opts.except);
  if (task) return { by: 'task', task };
  if (target.home === null) return null;
  const live = conversationLiveness(target.harness, target.home, target.id, opts);
  if (live.state !== 'live') return null;
  const inFleet = fleetHolderOf(live.holder, fleet, null);
  if (inFleet && inFleet.taskId !== opts.except) return { by: 'task', task: inFleet };
  return { by: 'process', where: holderText(live.holder) };
}

/**
 * The specs a load may start, and a warning for each it may not: a conversation open
 * elsewhere, or named twice in the same recipe (the second would be a second writer too).
 */
export function unheldSpecs<T extends { command: string; cwd: string; env: Record<string, string> }>(
  specs: readonly T[],
  fleet: readonly FleetHolder[],
  opts: LivenessOptions = {},
): { start: T[]; skipped: Warning[] } {
  const shared = sharedOpenFiles(opts);
  const start: T[] = [];
  const skipped: Warning[] = [];
  const seen = new Set<string>();
  for (const spec of specs) {
    const id = resumedBy(spec)?.id ?? null;
    const holding = holderOf(spec, fleet, shared);
    const entry = `${spec.cwd}: ${spec.command}`;
    if (id !== null && holding) skipped.push(heldWarning(entry, id, holding));
    else if (id !== null && seen.has(id)) skipped.push({ entry, reason: TWICE, detail: `conversation ${id} is named twice in this recipe; started once` });
    else start.push(spec);
    if (id !== null) seen.add(id);
  }
  return { start, skipped };
}

export function holdingText(id: string, holding: Holding): string {
  return `conversation ${id} is open in ${holding.by === 'task' ? holderText(holding.task) : holding.where}`;
}

const TWICE = 'its conversation is named twice in this recipe; started once';
// Summed up with its kind: a second load of the same recipe skips every agent of it at once.
const IN_FLEET = 'its conversation is already open in this fleet; not started again (was this recipe loaded twice?)';
const ELSEWHERE = 'its conversation is open in another process; not started';

/** A skipped entry, its holder named in its own line, its kind the reason it is summed up by. */
function heldWarning(entry: string, id: string, holding: Holding): Warning {
  return { entry, reason: holding.by === 'task' ? IN_FLEET : ELSEWHERE, detail: `${holdingText(id, holding)}; not started` };
}
