// The panes of the fleet's tmux server that are not tasks and run an agent someone started by
// hand, and what each would become as a task — or why it must not become one. Reads tmux's
// answer (passed in) and /proc; changes nothing.
import { harnessFor, resolveHome, type AgentProcess, type HarnessName, type HeldConversation, type ProcessTraces } from '../../harness/index.js';
import { processIds, subtreeOf, tmuxPlaceOf, type TreeProcess } from '../../ownership/index.js';
import type { PanePlace } from '../../tmux/pane-places.js';
import { agentProcess, agentsUnder, type AgentMatch } from './agent-process.js';

/** What the fleet is, for telling its own panes and conversations from others. */
export interface FleetView {
  /** This fleet's control socket: a window tagged with another is another fleet's task. */
  controlSocket: string;
  /** The fleet's tmux server (`#{socket_path}`). */
  tmuxSocket: string;
  /** The user fleetcom runs as: another user's process is never adopted. */
  uid: number | undefined;
  /** The conversation each task of the fleet holds now (precedence 1-3), by id. */
  conversations: ReadonlyMap<string, number>;
}

/** One agent pane: adoptable (`refused` null) or not, with what was read of it. */
export interface PaneAgent {
  place: PanePlace;
  agent: HarnessName | null;
  /** The program word of the task's command (`claude`, `/opt/bin/codex`). */
  program: string | null;
  pid: number | null;
  /** The agent is not the pane's own process (it runs under a shell that outlives it). */
  underShell: boolean;
  process: AgentProcess | null;
  home: string | null;
  conversation: HeldConversation | null;
  attention: ProcessTraces['attention'];
  /** Why it is never adopted, or null. */
  refused: string | null;
}

export function findPaneAgents(places: readonly PanePlace[], fleet: FleetView, proc: string): PaneAgent[] {
  if (processIds(proc) === null) throw new Error(`${proc} cannot be listed: fleetcom finds hand-started agents through it`);
  const found: PaneAgent[] = [];
  for (const place of places) {
    if (place.paneDead || place.panePid === null) continue;
    if (place.task !== null && place.socket === fleet.controlSocket) continue; // a task of this fleet
    const tree = subtreeOf(proc, place.panePid);
    if (tree === null) continue; // the pane's process ended meanwhile
    const agents = agentsUnder(proc, tree, place.panePid);
    const [match] = agents;
    if (match === undefined) continue;
    if (agents.length > 1) {
      const names = agents.map((a) => `${a.agent} pid ${a.process.pid}`).join(', ');
      found.push(refusal(place, null, `it runs ${agents.length} agents (${names}); a task follows one`));
      continue;
    }
    found.push(judge(place, match, tree, fleet, proc));
  }
  return found;
}

function judge(place: PanePlace, match: AgentMatch, tree: ReadonlyMap<number, TreeProcess>, fleet: FleetView, proc: string): PaneAgent {
  const { pid } = match.process;
  const base = { ...refusal(place, match, ''), refused: null };
  const refuse = (why: string): PaneAgent => ({ ...base, refused: why });
  if (place.task !== null) return refuse(`its window is task ${place.task} of another fleet (control socket ${place.socket ?? 'unknown'})`);
  if (fleet.uid !== undefined && match.facts.uid !== fleet.uid) {
    return refuse(`its ${match.agent} (pid ${pid}) runs as ${match.facts.uid === null ? 'a user fleetcom cannot tell' : `user ${match.facts.uid}`}, not as you`);
  }
  const process = agentProcess(proc, tree, match);
  if ('unreadable' in process) return refuse(`its traces cannot be read: ${process.unreadable}`);
  const where = tmuxPlaceOf(process.env);
  if (where !== null && where.socket !== fleet.tmuxSocket) {
    return refuse(`its ${match.agent} (pid ${pid}) runs in pane ${where.pane} of another tmux server (${where.socket}), not the fleet's (${fleet.tmuxSocket})`);
  }
  let home: string;
  try {
    home = resolveHome(match.agent, process.env);
  } catch (error) {
    return refuse(`its traces cannot be read: ${(error as Error).message}`);
  }
  const traces = harnessFor(match.agent).probe.traces(process, home);
  const found = { ...base, process, home, conversation: traces.conversation, attention: traces.attention };
  if (traces.conversation.kind === 'unreadable') return { ...found, refused: `its traces cannot be read: ${traces.conversation.why}` };
  if (traces.conversation.kind === 'id') {
    const task = fleet.conversations.get(traces.conversation.id);
    if (task !== undefined) return { ...found, refused: `its conversation ${traces.conversation.id} is already task ${task} of this fleet` };
  }
  return found;
}

function refusal(place: PanePlace, match: AgentMatch | null, why: string): PaneAgent {
  return {
    place, agent: match?.agent ?? null, program: match?.program ?? null, pid: match?.process.pid ?? null,
    underShell: match !== null && match.process.pid !== place.panePid, process: null, home: null, conversation: null, attention: null,
    refused: why,
  };
}
