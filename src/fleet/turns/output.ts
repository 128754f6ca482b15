// `output`: a turn's reply as the agent's turn-end signal carried it (claude's Stop, codex's
// notify, fleetcom's opencode plugin and pi extension), else as the agent's own store holds it
// for THIS task's conversation (never the newest file of a directory); `screen`: the pane's
// text, said to be that. A conversation another process holds too is not read from the store.
import type { BesideRequest, ReplyOf } from '../../control/protocol.js';
import { FleetError } from '../../errors.js';
import { harnessFor, type StoredTurn } from '../../harness/index.js';
import { conversationHolders, describePlace, PROC_ROOT } from '../../ownership/index.js';
import type { FleetState } from '../supervisor/fleet-state.js';
import type { Task } from '../supervisor/task.js';
import type { TurnLog } from './turn-log.js';

type OutputRequest = Extract<BesideRequest, { op: 'output' }>;
export type OutputReply = ReplyOf<'output'>;

export async function replyOf(fleet: FleetState, request: OutputRequest): Promise<OutputReply> {
  const task = fleet.tasks.lookup(request.task);
  if (!task) throw new FleetError(`no task ${request.task} in this fleet (see fleetcom ls)`);
  const conversationId = fleet.currentIds().get(task.id)?.id ?? null;
  const turns = fleet.attention.turnsOf(task);
  if (request.screen) {
    if (task.paneId === '') throw new FleetError(`task ${task.id}'s window is gone: it has no screen`);
    const text = await fleet.deps.tmux.retainedText(task.paneId);
    return { task: task.id, conversationId, turn: turns?.now ?? null, text, source: 'screen', from: `the text of pane ${task.paneId} (its screen and history, not the agent's record)` };
  }
  if (task.harness === null) throw new FleetError(`task ${task.id} is not an agent: only its screen can be read (fleetcom output ${task.id} --screen)`);
  const want = request.turn;
  if (turns !== null && want !== null && want > turns.ended) {
    throw new FleetError(`turn ${want} of task ${task.id} has not ended (${turns.open ? `it is on turn ${turns.open.n}` : `${turns.ended} turn(s) so far`}): fleetcom wait ${task.id} --turn ${want} waits for it`);
  }
  const signalled = turns === null ? null : want === null ? turns.lastEnded() : turns.turn(want);
  const conversing = harnessFor(task.harness).conversing;
  if (signalled !== null && signalled.reply !== null) {
    return { task: task.id, conversationId, turn: signalled.n, text: signalled.reply, source: 'signal', from: conversing.replySignal ?? 'the turn-end signal' };
  }
  return fromStore(fleet, task, conversationId, turns, want);
}

function fromStore(fleet: FleetState, task: Task, conversationId: string | null, turns: TurnLog | null, want: number | null): OutputReply {
  const agent = task.harness!;
  if (conversationId === null || task.home === null) throw new FleetError(`task ${task.id} has no known conversation yet: no reply to read`);
  const holders = conversationHolders(agent, task.home, conversationId, fleet.deps.procRoot ?? PROC_ROOT);
  const others = holders.kind === 'known' ? holders.holders.filter((h) => h.tmux?.pane !== task.paneId) : [];
  if (others.length > 0) {
    throw new FleetError(
      `conversation ${conversationId} of task ${task.id} is open in ${others.map(describePlace).join(', ')} too: ` +
        'its store may hold that process\'s turns, so no reply is read from it',
    );
  }
  const stored = harnessFor(agent).conversing.storedTurns(task.home, task.cwd, conversationId);
  if (stored.kind === 'none') throw new FleetError(`no reply of task ${task.id}: ${stored.why}`);
  const picked = pick(stored.turns, turns, want);
  if (picked === null || picked.turn.reply === null) {
    throw new FleetError(`no reply of task ${task.id}${want === null ? '' : ` for turn ${want}`} in ${stored.file}`);
  }
  return { task: task.id, conversationId, turn: picked.n, text: picked.turn.reply, source: 'store', from: stored.file };
}

/**
 * The stored turn of turn `want` of this run (or the last with a reply): the store holds the
 * whole conversation, earlier runs' turns first, so this run's turns are its last ones, the
 * one under way (when there is one) last of all.
 */
function pick(stored: readonly StoredTurn[], turns: TurnLog | null, want: number | null): { turn: StoredTurn; n: number | null } | null {
  const ended = turns?.open ? stored.slice(0, -1) : stored;
  if (want === null) {
    const at = ended.findLastIndex((t) => t.reply !== null);
    if (at < 0) return null;
    const n = turns === null ? null : turns.ended - (ended.length - 1 - at);
    return { turn: ended[at]!, n: n !== null && n >= 1 ? n : null };
  }
  if (turns === null) return null;
  const at = ended.length - 1 - (turns.ended - want);
  const turn = ended[at];
  return turn === undefined ? null : { turn, n: want };
}
