// `send`: one message into a task, confirmed by the agent. The task must need input (or
// `--now`: the agent's own queue or steer takes it while it works); a permission, a question
// or a person's draft in its composer is never typed into. The text goes in as one paste
// (tmux/typing.ts), Enter after the delay the agent needs, and again only while its composer
// still holds the text; then the agent's own signal that it took this text decides the verdict.
import type { BesideRequest, ReplyOf, SendVerdict } from '../../control/protocol.js';
import { FleetError } from '../../errors.js';
import { harnessFor, sameMessage, type Conversing, type Harness } from '../../harness/index.js';
import type { FleetState } from '../supervisor/fleet-state.js';
import { endedText, type Task } from '../supervisor/task.js';
import { TaskChanges } from './changes.js';
import { checkMessage } from './message.js';
import { StoreWatch } from './store-watch.js';
import { tracedConversation } from './traced.js';

type SendRequest = Extract<BesideRequest, { op: 'send' }>;
export type SendReply = ReplyOf<'send'>;

export interface SendDeps {
  fleet: FleetState;
  /** Runs a change of the fleet on the supervisor's queue. */
  enqueue<T>(work: () => Promise<T>): Promise<T>;
  maxBytes: number;
}

/** How often the screen is read again while a draft, a dialog or a start is in the way. */
const HOLD_LOOK_MS = 500;
/** After Enter, when the composer is first looked at, and then how often. */
const FIRST_LOOK_MS = 400;
const LOOK_MS = 1_000;
/** Enter is pressed again at most this many times, only while the composer holds the text. */
const MORE_ENTERS = 3;
/** How often the store is read for an agent confirmed by it. */
const STORE_LOOK_MS = 150;
/** How often the task's process is looked at for the conversation it holds, while its id is unknown (a /proc scan). */
const TRACE_LOOK_MS = 1_000;
/**
 * Once the text is typed the agent has at least this long to take it, whatever is left of the
 * timeout: typed at the deadline and judged at once, a message the agent takes a moment later
 * would be reported not taken, and a caller who sends it again would send it twice.
 */
const CONFIRM_MIN_MS = 10_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function sendMessage(deps: SendDeps, request: SendRequest): Promise<SendReply> {
  const { fleet } = deps;
  const started = fleet.deps.now();
  const task = fleet.tasks.lookup(request.task);
  if (!task) throw new FleetError(`no task ${request.task} in this fleet (see fleetcom ls)`);
  const harness = task.harness === null ? null : harnessFor(task.harness);
  const conversing = harness?.conversing ?? null;
  const checked = checkMessage(request.text, { maxBytes: deps.maxBytes, agent: conversing !== null, bracketedPaste: conversing?.bracketedPaste ?? false, agentMax: conversing?.largest });
  if (!checked.ok) throw new FleetError(`not sent to task ${task.id}: ${checked.problem}`);
  const deadline = started + request.timeoutMs;
  // The conversation it went into: the resolved id, or, before the agent's store holds the
  // message (claude's transcript comes a moment after its UserPromptSubmit), the one its own
  // signals name.
  const conversation = (verdict: SendVerdict) => fleet.currentIds().get(task.id)?.id ?? (verdict === 'submitted' ? fleet.attention.of(task).conversation : null);
  const reply = (verdict: SendVerdict, reason: string | null, turn: number | null = null): SendReply => ({
    task: task.id, verdict, via: 'tmux paste', turn, conversationId: conversation(verdict), ms: fleet.deps.now() - started, reason,
  });
  if (task.endedAt !== null || task.paneId === '') return reply('exited', endedText(task));
  if (harness === null || conversing === null) {
    await fleet.deps.tmux.pasteText(task.paneId, checked.text);
    await fleet.deps.tmux.sendKeys(task.paneId, 'Enter');
    return reply('typed', 'a plain command: nothing confirms what it does with the text');
  }
  const changes = new TaskChanges(fleet.feed, task.id);
  try {
    const ready = await untilReady(deps, task, harness, request.now, deadline, changes);
    if (ready !== null) return reply(ready.verdict, ready.reason);
    return await typeAndConfirm(deps, task, harness, checked.text, deadline, changes, reply);
  } finally {
    changes.close();
  }
}

type NotReady = { verdict: 'blocked' | 'busy' | 'exited'; reason: string };

/** Waits until the task can be typed into; null when it can, else the verdict that ends the send. */
async function untilReady(deps: SendDeps, task: Task, harness: Harness, now: boolean, deadline: number, changes: TaskChanges): Promise<NotReady | null> {
  const { fleet } = deps;
  let holding: string | null = null;
  let said = false;
  for (;;) {
    if (task.endedAt !== null) return { verdict: 'exited', reason: endedText(task) };
    if (changes.ended !== null) return { verdict: 'blocked', reason: `nothing was typed into task ${task.id}: ${changes.ended}` };
    const attention = fleet.attention.of(task);
    const screen = await fleet.deps.tmux.paneScreen(task.paneId);
    if (screen === null) return { verdict: 'exited', reason: `task ${task.id}'s pane is gone` };
    // A title that tells the state (gemini's, codex's approval) is read now: the fleet's last read may be 2 s old.
    const title = harness.attention?.title?.read(screen.title) ?? null;
    const state = title === 'permission' ? 'permission' : title === 'working' && harness.attention?.title?.tells === 'all' ? 'working' : attention.attention;
    if (state === 'permission') return { verdict: 'blocked', reason: `task ${task.id} asks for a permission${attention.message ? ` (${attention.message})` : ''}: answer it in its window; fleetcom never types into a dialog` };
    if (attention.question === true) return { verdict: 'blocked', reason: `task ${task.id} asks a question${attention.message ? ` (${attention.message})` : ''}: answer it in its window; fleetcom never types into a question` };
    const left = deadline - fleet.deps.now();
    if (state === 'working' && !now) {
      if (left <= 0) return { verdict: 'busy', reason: `task ${task.id} was working for the whole timeout; --now sends while it works (${queueText(harness.conversing)})` };
      if (!said) fleet.deps.log(`task ${task.id}: a message waits for it to need input (up to ${Math.ceil(left / 1000)} s)`);
      said = true;
      await changes.next(left);
      continue;
    }
    const composer = harness.conversing.composer(screen.text);
    if (composer === '') return null;
    holding = composer === null
      ? `no composer shows on task ${task.id}'s screen (it is starting, or a dialog or menu is open)`
      : `a draft is in task ${task.id}'s composer (${composer.length} characters): fleetcom never types into a person's draft; send again once it is sent or cleared`;
    if (left <= 0) return { verdict: 'blocked', reason: holding };
    await changes.next(Math.min(HOLD_LOOK_MS, left));
  }
}

async function typeAndConfirm(
  deps: SendDeps, task: Task, harness: Harness, text: string, deadline: number, changes: TaskChanges,
  reply: (verdict: SendVerdict, reason: string | null, turn?: number | null) => SendReply,
): Promise<SendReply> {
  const { fleet } = deps;
  const { tmux, now } = fleet.deps;
  const conversing = harness.conversing;
  const turns = fleet.attention.turnsOf(task);
  const since = turns?.nextSeq ?? 0;
  const store = storeWatch(fleet, task, conversing);
  deadline = Math.max(deadline, now() + CONFIRM_MIN_MS);
  await tmux.pasteText(task.paneId, text);
  await delay(conversing.enterDelayMs);
  await tmux.sendKeys(task.paneId, 'Enter');
  let enters = 0;
  let nextLook = now() + conversing.enterDelayMs + FIRST_LOOK_MS;
  let composer: string | null = '';
  for (;;) {
    const taken = turns?.promptsSince(since).find((p) => sameMessage(p.text, text));
    if (taken) return reply('submitted', null, taken.turn);
    if (store !== null && store.prompts().some((p) => sameMessage(p, text))) {
      const turn = await deps.enqueue(async () => {
        // Its turn-end signal may have said so meanwhile (codex's notify names the turn's prompt).
        const known = fleet.attention.turnsOf(task)?.promptsSince(since).find((p) => sameMessage(p.text, text));
        if (known) return known.turn;
        await fleet.applyAttention(fleet.attention.promptSeen(task, text));
        return fleet.attention.turnsOf(task)?.now ?? null;
      });
      return reply('submitted', null, turn);
    }
    if (task.endedAt !== null) return reply('exited', `${endedText(task)} after the text was typed`);
    const at = now();
    if (at >= nextLook) {
      const screen = await tmux.paneScreen(task.paneId);
      if (screen === null) return reply('exited', `task ${task.id}'s pane is gone`);
      composer = conversing.composer(screen.text);
      // Still in the composer: the Enter was taken as part of the text (a paste burst) or lost.
      if (composer !== null && composer !== '' && enters < MORE_ENTERS && at < deadline) {
        enters += 1;
        await tmux.sendKeys(task.paneId, 'Enter');
      }
      if (conversing.confirms === 'none' && composer === '') return reply('unconfirmed', `${harness.name} sends no signal that it took a message: the text left its composer`);
      nextLook = now() + LOOK_MS;
    }
    // The supervisor stops listening (it stops, or the fleet goes down): judged from what shows now.
    if (at >= deadline || changes.ended !== null) break;
    await changes.next(Math.min(store !== null ? STORE_LOOK_MS : LOOK_MS, nextLook - at, deadline - at));
  }
  const screen = await tmux.paneScreen(task.paneId);
  const held = screen === null ? composer : conversing.composer(screen.text);
  if (held !== null && held !== '') return reply('typed_not_submitted', `the text is still in task ${task.id}'s composer after ${enters + 1} Enter(s)`);
  const signal = conversing.confirms === 'none' ? `${harness.name} sends no signal that it took a message`
    : changes.ended !== null ? `fleetcom stopped hearing its signals (${changes.ended})` : `${harness.name}'s signal that it took this text did not come in time`;
  return reply('unconfirmed', `the text left task ${task.id}'s composer, but ${signal}`);
}

/**
 * The agent's store file to read, for an agent confirmed by its store — or by its event, when
 * this task's launch could not be given the channel that carries it (fleetcom hears nothing).
 */
function storeWatch(fleet: FleetState, task: Task, conversing: Conversing): StoreWatch | null {
  const byStore = conversing.confirms === 'store' || (conversing.confirms === 'event' && !fleet.attention.hears(task));
  if (!byStore || !conversing.promptFile || !conversing.promptOfLine || task.home === null) return null;
  const home = task.home;
  const promptFile = conversing.promptFile;
  let tracedAt = -Infinity;
  let traced: string | null = null;
  // An id not known yet (a fresh codex): the one the task's own process holds, looked at now and then.
  const trace = () => {
    if (fleet.deps.now() - tracedAt >= TRACE_LOOK_MS) {
      tracedAt = fleet.deps.now();
      traced = tracedConversation(fleet, task);
    }
    return traced;
  };
  const id = () => fleet.currentIds().get(task.id)?.id ?? task.pinnedId ?? task.targetId ?? trace();
  return new StoreWatch(() => {
    const conversation = id();
    return conversation === null ? null : promptFile(home, task.cwd, conversation);
  }, conversing.promptOfLine);
}

function queueText(conversing: Conversing): string {
  switch (conversing.whileBusy) {
    case 'queued':
      return 'the agent queues it for after its turn';
    case 'steers':
      return 'the agent takes it into the turn under way';
    default:
      return 'what the agent does with it then is not measured';
  }
}
