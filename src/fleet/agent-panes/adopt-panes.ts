// `fleetcom adopt`: the agents someone started by hand in panes of the fleet's tmux server,
// listed with what each would become, and made tasks without restarting anything — the window
// tagged and given its record and pane-died hook like any task's window, the process left
// alone and followed (its end is the run's end). Not to be confused with fleet/adoption/,
// which takes over the tasks of a supervisor that died.
import type { AgentPaneView, ReplyOf } from '../../control/protocol.js';
import { FleetError } from '../../errors.js';
import { HARNESSES, resolveId, rewriteCommand } from '../../harness/index.js';
import { PROC_ROOT } from '../../ownership/index.js';
import type { FleetState } from '../supervisor/fleet-state.js';
import type { Task } from '../supervisor/task.js';
import { findPaneAgents, type PaneAgent } from './find-agents.js';
import { hintsIn } from './hints-before.js';

export interface AdoptRequest {
  /** Panes (`%N`) and windows (`@N`) to adopt; null: every agent pane found (in `session` only, when given). */
  targets: readonly string[] | null;
  /** The asking shell's tmux server ($TMUX), or null outside tmux. */
  caller: string | null;
  session?: string;
}

/** The fleet's agent panes, read now. */
async function agentPanes(fleet: FleetState): Promise<{ socket: string; agents: PaneAgent[] }> {
  const { places, socket } = await fleet.deps.tmux.panePlaces();
  const conversations = new Map<string, number>();
  for (const [taskId, resolved] of fleet.currentIds()) if (resolved) conversations.set(resolved.id, taskId);
  for (const task of fleet.tasks.values()) if (task.tracedId && !conversations.has(task.tracedId)) conversations.set(task.tracedId, task.id);
  const view = { controlSocket: fleet.deps.controlSocket, tmuxSocket: socket, uid: process.getuid?.(), conversations };
  return { socket, agents: findPaneAgents(places, view, fleet.deps.procRoot ?? PROC_ROOT) };
}

export async function listAgentPanes(fleet: FleetState, caller: string | null): Promise<ReplyOf<'adoptable'>> {
  const { socket, agents } = await agentPanes(fleet);
  const now = fleet.deps.now();
  return { tmuxSocket: socket, panes: agents.map((a) => agentView(a, now)), note: otherServer(caller, socket) };
}

function otherServer(caller: string | null, socket: string): string | null {
  if (caller === null || caller === socket) return null;
  return `these are the panes of the fleet's tmux server (${socket}); this shell is on another one (${caller}), whose panes fleetcom cannot adopt`;
}

export async function adoptAgentPanes(fleet: FleetState, request: AdoptRequest): Promise<ReplyOf<'adopt'>> {
  const { socket, agents } = await agentPanes(fleet);
  if (request.targets !== null && request.caller !== null && request.caller !== socket) {
    throw new FleetError(
      `${request.targets.join(', ')}: this shell is on tmux server ${request.caller}, the fleet on ${socket}; ` +
        'pane and window ids name different panes on each — run fleetcom adopt from a pane of the fleet\'s server',
    );
  }
  const chosen = choose(agents, request, fleet);
  const now = fleet.deps.now();
  const adopted: Array<{ id: number; paneId: string }> = [];
  for (const agent of chosen.filter((a) => a.refused === null)) {
    const task = await adoptOne(fleet, agent, now);
    adopted.push({ id: task.id, paneId: task.paneId });
  }
  if (adopted.length > 0) fleet.changed();
  return { adopted, refused: chosen.filter((a) => a.refused !== null).map((a) => agentView(a, now)) };
}

/** The agent panes a request names; every name must be one (a typo adopts nothing). */
function choose(agents: readonly PaneAgent[], request: AdoptRequest, fleet: FleetState): PaneAgent[] {
  if (request.targets === null) return agents.filter((a) => request.session === undefined || a.place.sessionId === request.session);
  const chosen = new Set<PaneAgent>();
  for (const target of request.targets) {
    const named = agents.filter((a) => (target.startsWith('%') ? a.place.paneId : a.place.windowId) === target);
    if (named.length === 0) throw new FleetError(`${target}: ${whyNotAgent(target, fleet)}; nothing adopted (fleetcom adopt lists what can be)`);
    for (const agent of named) chosen.add(agent);
  }
  return [...chosen];
}

function whyNotAgent(target: string, fleet: FleetState): string {
  const task = fleet.tasks.lookup(target);
  if (task) return `already task ${task.id} of this fleet`;
  return `no pane of the fleet's tmux server there runs an agent started by hand (${HARNESSES.map((h) => h.name).join(', ')})`;
}

async function adoptOne(fleet: FleetState, agent: PaneAgent, now: number): Promise<Task> {
  const { tasks, marks, deps } = fleet;
  const { place, process, home } = agent;
  if (agent.agent === null || agent.program === null || process === null || home === null) throw new Error('adoptOne: a refused pane');
  const text = await deps.tmux.retainedText(place.paneId).catch(() => '');
  const task: Task = {
    id: tasks.nextId, run: 0, cwd: process.cwd, command: agent.program, name: null, group: null, tagged: false,
    harness: agent.agent, pinnedId: null, targetId: null, captureFile: null, home, spawnedAt: now,
    windowId: place.windowId, paneId: place.paneId, exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [],
    followed: { pid: process.pid, start: process.start, ...hintsIn(agent.agent, text) },
    tracedId: agent.conversation?.kind === 'id' ? agent.conversation.id : null,
    // A rerun starts the agent as this process was started: its own environment, not the adopter's.
    env: { ...process.env }, lastOutputAt: now, captured: null,
  };
  // An agent started by hand in a worktree fleetcom made gets that worktree's record (saved with it, made again on load).
  const worktree = deps.worktreeAt?.(process.cwd) ?? null;
  if (worktree !== null) task.worktree = worktree;
  const breakOut = place.windowPanes > 1 ? { from: place.windowId } : null;
  const made = await deps.tmux.takeOverPane(marks.takeOver(task, breakOut, now));
  task.windowId = made.windowId;
  tasks.add(task, made.panePid, made.paneTty);
  const attention = fleet.attention.reported(task, agent.attention, { quiet: true });
  if (attention) await fleet.applyAttention(attention);
  const id = task.tracedId ? `, conversation ${task.tracedId}` : '';
  deps.log(`task ${task.id} adopted: ${agent.agent} pid ${process.pid} in pane ${place.paneId}${agent.underShell ? ' (under its shell)' : ''}${id}`);
  return task;
}

/** What `fleetcom adopt` shows of an agent pane. */
export function agentView(agent: PaneAgent, now: number): AgentPaneView {
  const { place, conversation } = agent;
  const id = conversation?.kind === 'id' ? conversation.id : null;
  let usable: string | null = null;
  let why = agent.refused ?? (conversation?.kind === 'none' ? conversation.why : null);
  if (id !== null && agent.refused === null && agent.agent !== null && agent.process !== null && agent.home !== null) {
    const evidence = {
      harness: agent.agent, cwd: agent.process.cwd, home: agent.home, captureFile: null, exitHint: null, pinnedId: null,
      spawnedAt: now, endedAt: null, tracedId: id, handStarted: true,
    };
    usable = resolveId(evidence, { now, correlate: false, heldByOthers: new Set(), everHeld: new Set() })?.id ?? null;
    if (usable === null) why = `conversation ${id} holds no message yet: it counts from the first (${agent.agent} cannot resume it before)`;
  }
  return {
    paneId: place.paneId, windowId: place.windowId, session: place.sessionName, agent: agent.agent, pid: agent.pid, command: agent.program,
    cwd: agent.process?.cwd ?? null, home: agent.home, conversationId: id, idFrom: conversation?.kind === 'id' ? conversation.from : null,
    resumeCommand: agent.program === null || agent.refused !== null ? null : rewriteCommand(agent.program, usable),
    underShell: agent.underShell, ownWindow: place.windowPanes === 1, adoptable: agent.refused === null, why,
  };
}
