// What a rerun runs: an agent resumes the conversation its last run held (or attaches to the
// job claude parked it in); none is resumed that another holder has open (resuming the wrong
// conversation is worse than none). Reads only the stores and registries the resolvers read.
import { FleetError } from '../../errors.js';
import { resolveId, rewriteCommand, type Resolved } from '../../harness/index.js';
import type { FleetHolder } from '../../ownership/index.js';
import type { Launch } from '../spawn/launch.js';
import { holderOf, holdingText, resumedBy } from './ownership-guard.js';
import { parkedRerunCommand } from './parked-jobs.js';
import { launchFields } from '../spawn/spawn-plan.js';
import { evidenceOf, type Task } from '../supervisor/task.js';

export interface Rerun {
  run: number;
  command: string;
  /** The id the last run held, now kept among the ids the task ever held. */
  resolved: Resolved | null;
  /** The command came from the task's parked job. */
  parked: boolean;
}

export function planRerun(task: Task, holders: readonly FleetHolder[], now: number): Rerun {
  if (task.command === null) {
    throw new FleetError(`task ${task.id} was adopted without a record of its command; it cannot be rerun (fleetcom rm ${task.id} forgets it)`);
  }
  if (task.endedAt === null) {
    throw new FleetError(`task ${task.id} is still running; rerun takes a finished task (stop it with: fleetcom kill ${task.id})`);
  }
  const evidence = evidenceOf(task);
  const resolved = evidence ? resolveId(evidence, { now, correlate: false, heldByOthers: new Set(), everHeld: new Set() }) : null;
  const parked = parkedRerunCommand(task);
  const command = parked ?? (task.harness && resolved ? rewriteCommand(task.command, resolved.id) : task.command);
  const start = { command, cwd: task.cwd, env: task.env };
  const holding = holderOf(start, holders, { except: task.id });
  const target = resumedBy(start);
  if (holding && target) throw new FleetError(`task ${task.id} not rerun: ${holdingText(target.id, holding)}`);
  return { run: task.run + 1, command, resolved, parked: parked !== null };
}

/** The task's fields once its pane runs the new launch. */
export function rerunFields(task: Task, rerun: Rerun, launch: Launch, now: number) {
  const held = [...task.everHeld, ...(rerun.resolved ? [rerun.resolved.id] : []), ...(task.captured ? [task.captured] : [])];
  return {
    run: rerun.run, ...launchFields(launch), spawnedAt: now, lastOutputAt: now, exitHint: null,
    exitStatus: null, killed: false, endedAt: null, captured: null, everHeld: [...new Set(held)],
  };
}
