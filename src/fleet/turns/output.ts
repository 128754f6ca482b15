// `output`: a turn's reply as the agent's turn-end signal carried it (claude's Stop, codex's
// notify, fleetcom's opencode plugin and pi extension), else as the agent's own store holds it
// for THIS task's conversation (never the newest file of a directory); `screen`: the pane's
// text, said to be that. A conversation another process holds too is not read from the store.
import type { BesideRequest, ReplyOf } from '../../control/protocol.js';
import { FleetError } from '../../errors.js';
import { harnessFor, sameMessage, type StoredTurn } from '../../harness/index.js';
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
  // A turn its signals say has ended may reach the store a moment later — copilot writes its
  // events.jsonl after its Stop hook (measured on 1.0.102: 66–138 ms), and its conversation
  // counts only once that file holds a message — so the store is read again until it holds
  // this turn (its prompt, when the signals named it) with a reply, for a bounded time.
  const ended = signalled !== null && signalled.endedAt !== null ? signalled : null;
  const deadline = fleet.deps.now() + (ended === null ? 0 : STORE_SETTLE_MS);
  for (;;) {
    const read = fromStore(fleet, task, fleet.currentIds().get(task.id)?.id ?? null, turns, want, ended?.prompt ?? null);
    if (read.kind === 'reply') return read.reply;
    if (read.kind === 'refused' || fleet.deps.now() >= deadline) throw new FleetError(read.why);
    await new Promise((resolve) => setTimeout(resolve, STORE_LOOK_MS));
  }
}

/** How long a turn that has ended is given to reach the agent's store, and how often it is read meanwhile. */
export const STORE_SETTLE_MS = 5_000;
const STORE_LOOK_MS = 50;

type StoreRead = { kind: 'reply'; reply: OutputReply } | { kind: 'pending' | 'refused'; why: string };

/** The reply in the store; `pending` while it may yet come (nothing known or written yet), `refused` when it never will be read. */
function fromStore(fleet: FleetState, task: Task, conversationId: string | null, turns: TurnLog | null, want: number | null, prompt: string | null): StoreRead {
  const agent = task.harness!;
  if (task.home === null) return { kind: 'refused', why: `task ${task.id} has no known conversation: no reply to read` };
  if (conversationId === null) return { kind: 'pending', why: `task ${task.id} has no known conversation yet: no reply to read` };
  const holders = conversationHolders(agent, task.home, conversationId, fleet.deps.procRoot ?? PROC_ROOT);
  const others = holders.kind === 'known' ? holders.holders.filter((h) => h.tmux?.pane !== task.paneId) : [];
  if (others.length > 0) {
    return {
      kind: 'refused',
      why: `conversation ${conversationId} of task ${task.id} is open in ${others.map(describePlace).join(', ')} too: ` +
        'its store may hold that process\'s turns, so no reply is read from it',
    };
  }
  const stored = harnessFor(agent).conversing.storedTurns(task.home, task.cwd, conversationId);
  if (stored.kind === 'none') return { kind: 'pending', why: `no reply of task ${task.id}: ${stored.why}` };
  const picked = pick(stored.turns, turns, want);
  if (picked === null || picked.turn.reply === null) {
    return { kind: 'pending', why: `no reply of task ${task.id}${want === null ? '' : ` for turn ${want}`} in ${stored.file}` };
  }
  // The store's newest turn with a reply is an earlier one while this turn is not written yet.
  if (prompt !== null && !sameMessage(picked.turn.prompt, prompt)) {
    return { kind: 'pending', why: `no reply of task ${task.id} to ${want === null ? 'its last turn' : `turn ${want}`} in ${stored.file} yet (its newest is to another message)` };
  }
  return { kind: 'reply', reply: { task: task.id, conversationId, turn: picked.n, text: picked.turn.reply, source: 'store', from: stored.file } };
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
