// Attention: whether an agent is working, waiting for the user, or waiting for a permission,
// from the agent's own structured signals (claude's hooks, codex's notifier), never from its
// screen. Pure: payload values in, states out.
//
// Only a payload's event name, conversation id, `notification_type` and `message` are read;
// everything else a payload carries (the prompt, the last assistant message, paths) is never
// copied out of here.
import { isValidId } from './ids.js';
import { fieldProblem } from './json-shape.js';

export type Attention = 'working' | 'waiting' | 'permission';

/** What one payload says, reduced to what attention needs. */
export interface AttentionSignal {
  /** The hook or notifier event, for log lines. */
  event: string;
  /** The conversation the payload belongs to. */
  sessionId: string;
  /** The state it leads to; null: the task is ending (its state shows the exit). */
  attention: Attention | null;
  /** Human text worth showing (claude's Notification `message`), else null. */
  message: string | null;
  /** True when the payload starts a conversation in the pane (claude SessionStart, e.g. /clear). */
  starts: boolean;
  /** A question the agent asks (claude's AskUserQuestion, a plan to approve): its text is the message. */
  question?: boolean;
  /** A generic prompt for what a question already said (claude's permission_prompt Notification after it). */
  yieldsToQuestion?: boolean;
}

export interface AttentionState {
  attention: Attention | null;
  /** ms since epoch of the last change of `attention`; null when it is null. */
  since: number | null;
  message: string | null;
  /** The pane's current conversation: events for any other id are not the task's. */
  conversation: string | null;
  /** The wait is a question the agent asked (its text in `message`), not the end of a turn. */
  question?: boolean;
  /** The state came from the pane's title (a permission, or the working after it), which also says when it is over. */
  fromTitle?: boolean;
}

/** How an agent's pane title is read (AttentionRule.title). */
export interface TitleRule {
  read: (title: string) => TitleReading | null;
  tells: 'permission' | 'all';
  asking: string;
}

/** A state read from a pane title: asking for approval, working, or idle at its prompt. */
export type TitleReading = 'permission' | 'working' | 'idle';

/** Longest `message` kept: enough for a notification line, bounded against a forged payload. */
const MESSAGE_MAX = 200;

// Unknown keys are fine (new client versions add keys); the known ones must have these types.
const CLAUDE_EVENT = { hook_event_name: 'string', session_id: 'string', notification_type: 'string?', message: 'string?', tool_name: 'string?' } as const;

/** claude's tools that stop the turn for the user's answer (the overlay's PreToolUse matcher). */
export const CLAUDE_QUESTION_TOOLS = ['AskUserQuestion', 'ExitPlanMode'] as const;
const CODEX_NOTIFY = { type: 'string', 'thread-id': 'string' } as const;

interface ClaudeEvent {
  hook_event_name: string;
  session_id: string;
  notification_type?: string;
  message?: string;
  tool_name?: string;
  tool_input?: unknown;
}

export type SignalResult = { kind: 'signal'; signal: AttentionSignal } | { kind: 'ignored'; why: string };

/** One claude hook payload (an events-file line, already JSON-parsed). */
export function claudeSignal(payload: unknown): SignalResult {
  const problem = fieldProblem(payload, CLAUDE_EVENT);
  if (problem !== null) return { kind: 'ignored', why: `not a claude hook payload (${problem})` };
  const data = payload as ClaudeEvent;
  const { hook_event_name: event, session_id: sessionId } = data;
  if (!isValidId(sessionId)) return { kind: 'ignored', why: `${event}: session_id is not a valid id` };
  const base = { event, sessionId, message: null, starts: false };
  switch (event) {
    case 'UserPromptSubmit':
      return signal({ ...base, attention: 'working' });
    case 'Stop':
      return signal({ ...base, attention: 'waiting' });
    case 'SessionStart':
      return signal({ ...base, attention: 'waiting', starts: true });
    case 'SessionEnd':
      return signal({ ...base, attention: null });
    case 'PreToolUse':
    case 'PostToolUse': {
      const tool = data.tool_name ?? '';
      if (!(CLAUDE_QUESTION_TOOLS as readonly string[]).includes(tool)) return { kind: 'ignored', why: `${event} of tool ${JSON.stringify(tool)}` };
      // Answered: the turn goes on.
      if (event === 'PostToolUse') return signal({ ...base, attention: 'working' });
      return signal({ ...base, attention: 'waiting', question: true, message: questionText(tool, data.tool_input) });
    }
    case 'Notification': {
      const message = cleanMessage(data.message);
      // Measured on 2.1.197 and 2.1.332: a question's PreToolUse is followed by this, saying only
      // "Claude needs your permission"; it must not replace the question.
      if (data.notification_type === 'permission_prompt') return signal({ ...base, attention: 'permission', message, yieldsToQuestion: true });
      // idle_prompt comes about 60 s after a Stop: still waiting, now with claude's words for it.
      if (data.notification_type === 'idle_prompt') return signal({ ...base, attention: 'waiting', message, yieldsToQuestion: true });
      return { kind: 'ignored', why: `Notification of type ${JSON.stringify(data.notification_type ?? null)}` };
    }
    default:
      return { kind: 'ignored', why: `hook ${JSON.stringify(event)} carries no attention` };
  }
}

/**
 * A question the agent asks through a tool whose input is AskUserQuestion's (`questions[]` of
 * `{question}`: claude's, qwen's `ask_user_question`): waiting, the first question its message.
 */
export function questionSignal(event: string, sessionId: string, input: unknown, who: string): AttentionSignal {
  return { event, sessionId, attention: 'waiting', question: true, message: questionText('AskUserQuestion', input, who), starts: false };
}

/**
 * What the user is asked: AskUserQuestion's first question (and how many more), or the first
 * line of the plan ExitPlanMode submits. Only these strings leave the payload.
 */
function questionText(tool: string, input: unknown, who = 'Claude'): string {
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  if (tool === 'ExitPlanMode') {
    const plan = typeof record.plan === 'string' ? record.plan.split('\n').map((l) => l.replace(/^[#>*\s-]+/, '').trim()).find((l) => l !== '') : undefined;
    return cleanMessage(plan === undefined ? 'Claude has a plan for you to approve' : `Plan to approve: ${plan}`) ?? 'Claude has a plan for you to approve';
  }
  const questions = Array.isArray(record.questions) ? record.questions : [];
  const first = questions[0];
  const text = typeof first === 'object' && first !== null && typeof (first as Record<string, unknown>).question === 'string'
    ? ((first as Record<string, unknown>).question as string) : null;
  const more = questions.length > 1 ? ` (+${questions.length - 1} more)` : '';
  return cleanMessage(text === null ? `${who} has a question for you` : `${text}${more}`) ?? `${who} has a question for you`;
}

/** One codex notify payload (a capture-file line): a completed turn waits for the user. */
export function codexSignal(payload: unknown): SignalResult {
  const problem = fieldProblem(payload, CODEX_NOTIFY);
  if (problem !== null) return { kind: 'ignored', why: `not a codex notify payload (${problem})` };
  const data = payload as { type: string; 'thread-id': string };
  if (data.type !== 'agent-turn-complete') return { kind: 'ignored', why: `codex notify of type ${JSON.stringify(data.type)}` };
  const sessionId = data['thread-id'];
  if (!isValidId(sessionId)) return { kind: 'ignored', why: 'agent-turn-complete: thread-id is not a valid id' };
  return signal({ event: 'agent-turn-complete', sessionId, attention: 'waiting', message: null, starts: false });
}

/** The signal of an agent that sends none (`file: 'none'`): never called with a payload. */
export function noSignal(): SignalResult {
  return { kind: 'ignored', why: 'the agent sends no events' };
}

export const NO_ATTENTION: AttentionState = { attention: null, since: null, message: null, conversation: null };

export type Step =
  | { kind: 'changed'; state: AttentionState; from: Attention | null }
  | { kind: 'same'; state: AttentionState }
  | { kind: 'ignored'; why: string };

/**
 * The state after one signal at `now`. A signal of another conversation (a subagent, a
 * background worker, another task's leaked environment) changes nothing; one that starts a
 * conversation in the pane makes it the current one. `since` moves only when the state does,
 * so a repeated Stop or an idle reminder keeps the time the wait began.
 */
export function applySignal(state: AttentionState, signal: AttentionSignal, now: number): Step {
  const conversation = signal.starts ? signal.sessionId : state.conversation;
  if (conversation !== null && signal.sessionId !== conversation) {
    return { kind: 'ignored', why: `${signal.event} of conversation ${signal.sessionId}, not the task's ${conversation}` };
  }
  // A question is waiting already, and says more than the generic prompt that follows it.
  if (state.question === true && signal.yieldsToQuestion === true) return { kind: 'same', state: { ...state, conversation } };
  const attention = signal.attention;
  const question = signal.question === true;
  if (attention === state.attention && question === (state.question === true)) {
    const message = signal.message ?? (attention === 'waiting' || attention === 'permission' ? state.message : null);
    return { kind: 'same', state: { ...state, conversation, message } };
  }
  return {
    kind: 'changed',
    from: state.attention,
    state: { attention, since: attention === null ? null : now, message: signal.message, conversation, ...(question ? { question } : {}) },
  };
}

/**
 * codex has no prompt event: once it waits, new output more than `afterMs` after the wait
 * began means the user gave it something to do. Output within that margin is the tail of the
 * reply that the notifier raced.
 */
export function workingFromOutput(state: AttentionState, lastOutputAt: number, afterMs: number): AttentionState | null {
  if (state.attention !== 'waiting' || state.since === null) return null;
  if (lastOutputAt <= state.since + afterMs) return null;
  return { ...state, attention: 'working', since: lastOutputAt, message: null };
}

/**
 * The state after the pane's title was read (TitleReading), or null for no change. A title
 * that `tells` only the approval prompt (codex) raises permission, and ends one it raised once
 * it no longer asks — working under a spinner (until the idle title or the turn's notify),
 * waiting when idle (measured: a refused approval ends the turn and no notify says so); any
 * other state is the agent's signals' to tell. A title that tells `all` (gemini) is the state
 * itself: idle is waiting.
 */
export function titleStep(state: AttentionState, reading: TitleReading | null, now: number, rule: Pick<TitleRule, 'tells' | 'asking'>): AttentionState | null {
  if (reading === null) return null;
  const attention: Attention = reading === 'permission' ? 'permission' : reading === 'working' ? 'working' : 'waiting';
  if (state.attention === attention) return null;
  const message = attention === 'permission' ? rule.asking : null;
  if (rule.tells === 'all') return { attention, since: now, message, conversation: state.conversation };
  if (reading === 'permission') return { attention, since: now, message, conversation: state.conversation, fromTitle: true };
  if (state.fromTitle !== true) return null;
  // Measured on codex 0.171.0: a refused approval shows the spinner for a moment before the
  // idle title, and no notify follows; the working it leads to stays the title's to end.
  return { attention, since: now, message: null, conversation: state.conversation, ...(attention === 'working' ? { fromTitle: true } : {}) };
}

/**
 * True for the transitions a user is told about: into permission, or into waiting when a turn
 * ended. A conversation starting (a fresh or resumed prompt, a /clear) is not news: the user
 * is the one who just started it.
 */
export function worthNotifying(from: Attention | null, to: Attention | null, signal: Pick<AttentionSignal, 'starts'>): boolean {
  if (to === 'permission') return from !== 'permission';
  return to === 'waiting' && from !== 'waiting' && !signal.starts;
}

function signal(s: AttentionSignal): SignalResult {
  return { kind: 'signal', signal: s };
}

/** Control characters out (the text reaches terminals and tmux), length bounded. */
function cleanMessage(message: string | undefined): string | null {
  if (message === undefined) return null;
  // eslint-disable-next-line no-control-regex
  const text = message.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  if (text === '') return null;
  return text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 1)}…` : text;
}

/** What ordering needs of a task: its attention and since when. */
export interface Attending {
  id: number;
  attention: Attention | null;
  since: number | null;
}

/**
 * The tasks that need the user, in the order to visit them: permission first, then waiting,
 * each the longest-waiting first (ties by id).
 */
export function needsYouOrder<T extends Attending>(items: Iterable<T>): T[] {
  const rank = (a: Attention | null) => (a === 'permission' ? 0 : 1);
  return [...items]
    .filter((t) => t.attention === 'permission' || t.attention === 'waiting')
    .sort((a, b) => rank(a.attention) - rank(b.attention) || (a.since ?? 0) - (b.since ?? 0) || a.id - b.id);
}

/**
 * The one to go to after `current` (a task id, or null when the user is elsewhere), cycling;
 * without `wrap`, null where it would go round to the first again.
 */
export function nextNeedingYou<T extends Attending>(items: Iterable<T>, current: number | null, wrap = true): T | null {
  const order = needsYouOrder(items);
  const at = order.findIndex((t) => t.id === current);
  if (!wrap && at + 1 >= order.length) return null;
  return order[(at + 1) % Math.max(order.length, 1)] ?? null;
}
