// Catching up with tmux: a pane that died (its hook, the process watch or the periodic tick
// said so), a window closed outside fleetcom, output that moved a task's glyph or attention,
// and claude's parked jobs. Runs on the supervisor's queue like every other change.
import { conversationOf } from '../../harness/index.js';
import { PROC_ROOT } from '../../ownership/index.js';
import { exitHintOf, followedRuns, refreshTraces, underShell } from '../agent-panes/followed.js';
import type { FleetState } from '../supervisor/fleet-state.js';
import { observeParkedJobs } from '../rerun/parked-jobs.js';
import type { Ending } from './process-watch.js';
import type { Task } from '../supervisor/task.js';
import { isOver, type PaneInfo } from '../tmux/tmux-port.js';

/** A pane-died hook fired: the task's exit is recorded once tmux shows the pane over. */
export async function paneDied(fleet: FleetState, paneId: string): Promise<void> {
  const task = fleet.tasks.byPane(paneId);
  if (!task || task.endedAt !== null) return;
  const pane = (await fleet.deps.tmux.listPanes()).find((p) => p.paneId === paneId);
  if (pane && isOver(pane)) await recordExit(fleet, task, pane);
}

/**
 * A task's process ended (the process watch saw it, or found it when a pane-died hook woke it):
 * its pane and text are read in one tmux call instead of a whole reconciliation. 'not over':
 * tmux has not read the last of its output yet; 'gone': its window is gone (or tmux's answer
 * made no sense), which a reconciliation sorts out.
 */
export async function processEnded(fleet: FleetState, task: Task, ending: Ending, attempt = Infinity): Promise<'recorded' | 'not over' | 'gone'> {
  const read = await fleet.deps.tmux.endedPane(task.paneId).catch(() => null);
  if (read === null) return 'gone';
  if (!isOver(read.pane)) return followedEnded(fleet, task, read, ending, attempt >= FOLLOWED_READS);
  if (!read.pane.dead && ending.kind !== 'zombie') {
    // The terminal closed (or the pid is gone) before tmux reaped the process, so neither tmux
    // nor the watch has its status yet: recording now would say "status unknown" for a clean
    // exit. A child exit makes tmux reap; the status comes with the next read.
    await fleet.deps.tmux.reapChildren().catch(() => undefined);
    return 'not over';
  }
  // tmux has not reaped it: the zombie's own status is the one tmux will report.
  const unreaped = !read.pane.dead && ending.kind === 'zombie';
  await recordExit(fleet, task, unreaped ? { ...read.pane, deadStatus: ending.exitStatus } : read.pane, read.text);
  if (!read.pane.dead) await fleet.deps.tmux.reapChildren().catch(() => undefined);
  return 'recorded';
}

/**
 * An adopted agent under a shell that outlives it: its end is the run's end though the pane
 * lives on. tmux may not have read its last output yet (its exit hint) when the process is
 * seen gone: a read without a hint is tried again unless it is the `last` try. Few tries: an
 * agent that printed none (no message sent) would wait through all of them — ten took 0.5 to
 * 2 s on a loaded machine, a tmux call each — and tmux answering one read has been through its
 * event loop, where a readable terminal is read, so the hint written before the exit is in
 * the next read.
 */
const FOLLOWED_READS = 2;

async function followedEnded(fleet: FleetState, task: Task, read: { pane: PaneInfo; text: string }, ending: Ending, last: boolean): Promise<'recorded' | 'not over'> {
  const proc = fleet.deps.procRoot ?? PROC_ROOT;
  if (!task.followed || !underShell(task, read.pane.pid) || followedRuns(proc, task.followed)) return 'not over';
  if (!last && exitHintOf(task, read.text) === null) return 'not over';
  const status = ending.kind === 'zombie' ? ending.exitStatus : null;
  await recordExit(fleet, task, { ...read.pane, deadStatus: status, deadSignal: null }, read.text);
  return 'recorded';
}

/** Catches what hooks missed: deaths, windows closed outside fleetcom, idleness. */
export async function reconcile(fleet: FleetState): Promise<void> {
  const { tasks, attention, marks, deps } = fleet;
  if (tasks.size === 0) return; // nothing to catch up with: no tmux call
  fleet.reconciliations += 1;
  const proc = deps.procRoot ?? PROC_ROOT;
  const panes = new Map((await deps.tmux.listPanes()).map((p) => [p.paneId, p]));
  const traced = await refreshTraces(fleet, tasks.values(), proc);
  const renames: Array<[string, string]> = [];
  for (const task of tasks.values()) {
    if (task.paneId === '') continue; // its window is gone; kept until rm
    const pane = panes.get(task.paneId);
    if (!pane) {
      windowGone(fleet, task);
      continue;
    }
    if (pane.activity > task.lastOutputAt && task.endedAt === null) task.lastOutputAt = pane.activity;
    if (!pane.dead && pane.pid !== null) tasks.notePid(task, pane.pid, pane.tty ?? null);
    if (isOver(pane) && task.endedAt === null) {
      if (statusComing(task, pane, deps.now())) continue;
      await recordExit(fleet, task, pane);
    } else if (task.endedAt === null && task.followed && underShell(task, pane.pid) && !followedRuns(proc, task.followed)) {
      await recordExit(fleet, task, { ...pane, deadStatus: null, deadSignal: null });
    } else {
      // A backstop for a missed file event, codex's title and its output heuristic; the rename below shows it.
      await fleet.applyAttention(attention.refresh(task) ?? attention.titleSeen(task, pane.title) ?? attention.outputSeen(task), { rename: false });
      const name = marks.nameChange(task, attention.of(task).attention);
      if (name !== null) renames.push([task.windowId, name]);
    }
  }
  // One tmux call for all the glyphs that changed (50 tasks going idle together cost 50
  // clients: a 5 % CPU spike of the supervisor, npm run bench).
  if (renames.length > 0) await deps.tmux.renameWindows(renames).catch(() => undefined);
  const claudes = tasks.values().filter((t) => t.harness === 'claude' || t.parkedJob);
  const withPanes = claudes.map((task) => ({ task, panePid: panes.get(task.paneId)?.pid ?? null }));
  if ((withPanes.length > 0 && observeParkedJobs(withPanes, proc)) || traced) fleet.changed();
}

/** How long a pane whose terminal closed may go unreaped before its exit is recorded without a status. */
export const STATUS_WAIT_MS = 3_000;
/** When each run was first seen over but not reaped (by task, with its run). */
const unreapedSince = new WeakMap<Task, { run: number; at: number }>();

/**
 * The pane's terminal has closed but tmux has not reaped its process yet, so its exit status
 * is unknown for a moment: the reading nudged tmux to reap (listPanes), and the pane-died hook
 * or the next look records the exit with its status. Recorded without one only if it stays so
 * (tmux missed the SIGCHLD and the nudge did not help): a clean exit is not said "status unknown".
 */
function statusComing(task: Task, pane: PaneInfo, now: number): boolean {
  if (pane.dead) return false;
  const seen = unreapedSince.get(task);
  if (seen === undefined || seen.run !== task.run) {
    unreapedSince.set(task, { run: task.run, at: now });
    return true;
  }
  return now - seen.at < STATUS_WAIT_MS;
}

/** The run ended: its exit hint scraped from the pane's text, its status, and the window shows it. */
export async function recordExit(fleet: FleetState, task: Task, pane: PaneInfo, retained?: string): Promise<void> {
  const { deps } = fleet;
  const hadAttention = fleet.attention.of(task).attention !== null;
  const text = retained ?? (await deps.tmux.retainedText(task.paneId).catch(() => ''));
  task.exitHint = exitHintOf(task, text);
  task.exitStatus = pane.deadStatus;
  task.killed = pane.deadSignal !== null;
  task.endedAt = deps.now();
  const how = task.killed ? `was killed by signal ${pane.deadSignal}` : task.exitStatus === null ? 'exited (status unknown)' : `exited with status ${task.exitStatus}`;
  const shell = isOver(pane) ? '' : ' (its shell lives on)';
  deps.log(`task ${task.id} ${how}${shell}${task.exitHint ? `; exit hint ${task.exitHint}` : ''}`);
  const hinted = task.exitHint && task.harness && task.home ? conversationOf(task.harness, task.exitHint, { home: task.home, cwd: task.cwd }) : null;
  if (hinted && hinted.kind !== 'own') {
    deps.log(`task ${task.id}: its exit hint names ${hinted.note}; ${hinted.kind === 'parent' ? `it resumes ${hinted.id}` : 'not resumable'}`);
  }
  if (hadAttention) await fleet.marks.showAttention(task, null);
  await fleet.rename(task);
  fleet.changed();
}

/**
 * The task's window was closed outside fleetcom (it is on none of the server's sessions): it
 * stays in the fleet, exited with an unknown status, so its conversation can still be
 * resumed (rerun makes a new window) or saved, until the user runs `rm`.
 */
export function windowGone(fleet: FleetState, task: Task): void {
  const { deps } = fleet;
  const id = fleet.currentIds().get(task.id)?.id ?? null;
  if (task.endedAt === null) Object.assign(task, { endedAt: deps.now(), exitStatus: null, killed: false });
  Object.assign(task, { windowId: '', paneId: '' });
  fleet.marks.forget(task.id);
  deps.log(
    `task ${task.id}: its window was closed outside fleetcom; kept as exited${id ? ` with conversation ${id}` : ''} ` +
      `(fleetcom rerun ${task.id} brings it back, fleetcom rm ${task.id} forgets it)`,
  );
  fleet.changed();
}
