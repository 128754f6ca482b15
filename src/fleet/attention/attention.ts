// Each task's attention (working / waiting / permission), kept in memory and rebuilt from the
// run's signal file (its harness's attention rule): an `.events` file beside the capture file
// (claude's hooks, opencode's plugin) or the capture file itself (codex's notifier).
// A supervisor that restarts reads the files again from the start, so nothing is persisted.
// Each payload also counts turns (turns/turn-log.ts): every transition of a batch is kept in
// the change, so a turn that started and ended between two reads is still seen and told.
import { readFileSync } from 'node:fs';
import { EventsReader, eventsPath } from '../../capture/index.js';
import {
  applySignal, captureId, harnessFor, NO_ATTENTION, titleStep, workingFromOutput, worthNotifying,
  type Attention, type AttentionRule, type AttentionState,
} from '../../harness/index.js';
import { evidenceOf, type Task } from '../supervisor/task.js';
import { TurnLog } from '../turns/turn-log.js';
import { push, stateTransition, turnTransition, type Transition } from '../turns/transitions.js';

export type { Transition };

/** codex has no prompt event: output this long after a completed turn means a new one began. */
export const CODEX_WORKING_AFTER_MS = 2_000;

export interface AttentionChange {
  task: Task;
  from: Attention | null;
  state: AttentionState;
  /** Whether the user is to be told (one notification per transition, never on a replay). */
  notify: boolean;
  /** Every step between `from` and `state`, in order (a turn that came and went included). */
  transitions: Transition[];
}

interface Entry {
  run: number;
  reader: EventsReader | null;
  state: AttentionState;
  turns: TurnLog;
}

export class AttentionBoard {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly deps: { now: () => number; log: (line: string) => void }) {}

  /**
   * Whether the task's agent can be heard at all: its title, or the signal file its launch gave
   * it (none when fleetcom could not add its channel: a qwen whose system defaults it would
   * stand in for). An agent started by hand and adopted has none of fleetcom's, and is heard
   * through what it records itself (reported).
   */
  hears(task: Task): boolean {
    const rule = ruleOf(task);
    if (rule === null) return false;
    return rule.file === 'none' ? rule.title !== undefined : task.captureFile !== null || Boolean(task.followed);
  }

  /** The run's turns, for an agent whose signals count them (null: none, or not this run). */
  turnsOf(task: Task): TurnLog | null {
    if (!this.hears(task)) return null;
    const entry = this.entries.get(task.id);
    return entry && entry.run === task.run ? entry.turns : this.entry(task).turns;
  }

  /** The turn number `ls` shows: the one under way, else the last; null for an agent without signals. */
  turnNow(task: Task): number | null {
    return this.turnsOf(task)?.now ?? null;
  }

  /** The task's attention now; an exited task, or one whose agent sends no signals, has none. */
  of(task: Task): AttentionState {
    const entry = this.entries.get(task.id);
    if (task.endedAt !== null || !entry || entry.run !== task.run) return NO_ATTENTION;
    return entry.state;
  }

  /**
   * Reads what the task's signal file gained. `quiet` (a file read from its start after an
   * adoption) updates the state without notifying: those transitions are history.
   */
  refresh(task: Task, opts: { quiet?: boolean } = {}): AttentionChange | null {
    const entry = this.entry(task);
    if (entry.reader === null || task.endedAt !== null) return null;
    const batch = entry.reader.read();
    for (const problem of batch.problems) this.deps.log(`task ${task.id}: ${entry.reader.path} ${problem}`);
    if (batch.payloads.length === 0) return null;
    const rule = ruleOf(task);
    if (rule === null) return null;
    const fromCapture = rule.conversationFromCapture;
    if (fromCapture) entry.state = { ...entry.state, conversation: this.captureConversation(task) };
    const before = entry.state.attention;
    const beforeQuestion = entry.state.question === true;
    let notify = false;
    let turnEnded = false;
    const ignored: string[] = [];
    const now = this.deps.now();
    const transitions: Transition[] = [];
    const turnOf = harnessFor(task.harness!).conversing.turnOf;
    for (const payload of batch.payloads) {
      const result = rule.signal(payload);
      // codex: until its conversation is known (its rollout exists), no payload is its own.
      if (fromCapture && entry.state.conversation === null) {
        if (result.kind === 'signal') ignored.push(`${result.signal.event} before the task's conversation is known`);
        continue;
      }
      // The turn first: a prompt's working and a reply's waiting carry their turn.
      const mark = turnOf(payload);
      const conversation = result.kind === 'signal' && result.signal.starts ? result.signal.sessionId : entry.state.conversation;
      if (mark !== null && (conversation === null || mark.sessionId === conversation)) {
        for (const step of entry.turns.apply(mark, now)) {
          turnEnded ||= step.kind === 'ended';
          push(transitions, turnTransition(step, now));
        }
      }
      if (result.kind === 'ignored') {
        ignored.push(result.why);
        continue;
      }
      const step = applySignal(entry.state, result.signal, now);
      if (step.kind === 'ignored') {
        ignored.push(step.why);
        continue;
      }
      entry.state = step.state;
      // A turn under way is work, whatever the signal said: the prompt claude queued behind the
      // turn that just stopped has begun.
      const busyAgain = entry.turns.open !== null && entry.state.attention === 'waiting' && entry.state.question !== true;
      if (busyAgain) entry.state = { ...entry.state, attention: 'working', since: now, message: null };
      if (step.kind === 'changed' || busyAgain) {
        if (!busyAgain && step.kind === 'changed') notify = worthNotifying(step.from, step.state.attention, result.signal) || result.signal.question === true;
        push(transitions, stateTransition(entry.state, entry.turns, now));
      }
    }
    // A turn that ended, also one that began in the same batch, is news like any other.
    if (turnEnded && entry.state.attention === 'waiting' && entry.state.question !== true) notify = true;
    // The codex notifier appends every payload to the capture file; most are not attention's.
    if (ignored.length > 0 && rule.file === 'events') {
      this.deps.log(`task ${task.id}: ignored ${ignored.length} event(s): ${ignored[0]}${ignored.length > 1 ? ', …' : ''}`);
    }
    if (transitions.length === 0 && entry.state.attention === before && (entry.state.question === true) === beforeQuestion) return null;
    return { task, from: before, state: entry.state, notify: notify && !opts.quiet, transitions };
  }

  /**
   * `send` saw the agent take a prompt in its store (an agent whose prompt signal does not
   * reach fleetcom): the turn starts, and the task works, before its turn-end signal says more.
   */
  promptSeen(task: Task, prompt: string): AttentionChange | null {
    if (task.endedAt !== null || !this.hears(task)) return null;
    const entry = this.entry(task);
    if (entry.turns.open?.prompt === prompt) return null; // seen already
    const now = this.deps.now();
    const transitions = entry.turns.start(prompt, now).map((step) => turnTransition(step, now));
    if (transitions.length === 0) return null;
    const from = entry.state.attention;
    if (from !== 'working') entry.state = { ...entry.state, attention: 'working', since: now, message: null, question: undefined };
    return { task, from, state: entry.state, notify: false, transitions };
  }

  /**
   * An adopted agent's attention as its own record states it (claude's registry `status`:
   * fleetcom's hooks are not in a process it did not start). The first report after adoption
   * is not news; later transitions are told like a hook's.
   */
  reported(task: Task, report: { attention: Attention; message: string | null } | null, opts: { quiet?: boolean } = {}): AttentionChange | null {
    if (task.endedAt !== null) return null;
    const entry = this.entry(task);
    const before = entry.state.attention;
    const attention = report?.attention ?? null;
    const message = report?.message ?? null;
    if (attention === before) {
      entry.state = { ...entry.state, message };
      return null;
    }
    const first = before === null;
    const now = this.deps.now();
    entry.state = { attention, since: attention === null ? null : now, message, conversation: task.tracedId ?? null };
    return { task, from: before, state: entry.state, notify: !opts.quiet && worthNotifying(before, attention, { starts: first }), transitions: [stateTransition(entry.state, null, now)] };
  }

  /**
   * The pane's title, for an agent whose title tells what no event does (codex's approval
   * prompt, all of gemini's states).
   */
  titleSeen(task: Task, title: string | undefined): AttentionChange | null {
    const rule = ruleOf(task)?.title;
    if (rule === undefined || title === undefined || task.endedAt !== null) return null;
    const entry = this.entry(task);
    const now = this.deps.now();
    const next = titleStep(entry.state, rule.read(title), now, rule);
    if (next === null) return null;
    const from = entry.state.attention;
    entry.state = next;
    // A title that tells all (gemini) is its turns too: working starts one, waiting after it ends it.
    const transitions: Transition[] = [];
    if (rule.tells === 'all' && next.attention === 'working') for (const step of entry.turns.start(null, now)) push(transitions, turnTransition(step, now));
    if (rule.tells === 'all' && next.attention === 'waiting' && entry.turns.open !== null) {
      for (const step of entry.turns.apply({ kind: 'end', sessionId: '', reply: null }, now)) push(transitions, turnTransition(step, now));
    }
    push(transitions, stateTransition(next, entry.turns, now));
    // News: an approval prompt, and (a title that tells all) a turn that ended; not a start.
    const notify = next.attention === 'permission' || (rule.tells === 'all' && next.attention === 'waiting' && from === 'working');
    return { task, from, state: next, notify, transitions };
  }

  /** codex only: new output well after a completed turn means it is working again. */
  outputSeen(task: Task): AttentionChange | null {
    const entry = this.entries.get(task.id);
    if (ruleOf(task)?.conversationFromCapture !== true || task.endedAt !== null || !entry || entry.run !== task.run) return null;
    const next = workingFromOutput(entry.state, task.lastOutputAt, CODEX_WORKING_AFTER_MS);
    if (next === null) return null;
    const from = entry.state.attention;
    entry.state = next;
    return { task, from, state: next, notify: false, transitions: [stateTransition(next, entry.turns, this.deps.now())] };
  }

  forget(taskId: number): void {
    this.entries.delete(taskId);
  }

  /** The task's entry for its current run; a rerun starts a fresh one. */
  private entry(task: Task): Entry {
    const known = this.entries.get(task.id);
    if (known && known.run === task.run) return known;
    const entry: Entry = { run: task.run, reader: signalFile(task), state: { ...NO_ATTENTION, conversation: startConversation(task) }, turns: new TurnLog() };
    this.entries.set(task.id, entry);
    return entry;
  }

  /** The id the capture resolves to now (codex: the last payload whose rollout exists). */
  private captureConversation(task: Task): string | null {
    const evidence = evidenceOf(task);
    return (evidence && captureId(evidence, this.deps.now())) ?? task.captured;
  }
}

function ruleOf(task: Task): AttentionRule | null {
  return task.harness === null ? null : harnessFor(task.harness).attention;
}

function signalFile(task: Task): EventsReader | null {
  const rule = ruleOf(task);
  if (task.captureFile === null || rule === null || rule.file === 'none') return null;
  return new EventsReader(rule.file === 'capture' ? task.captureFile : eventsPath(task.captureFile));
}

/**
 * The conversation before any signal is read, for an agent whose events carry it: the capture
 * file's latest (claude's holds the latest SessionStart, which outlives an events file
 * restarted at its size cap), else the pin or target.
 */
function startConversation(task: Task): string | null {
  const rule = ruleOf(task);
  if (task.harness === null || rule === null || rule.conversationFromCapture) return null;
  let captured: string | undefined;
  try {
    if (task.captureFile) captured = harnessFor(task.harness).parseCapture(readFileSync(task.captureFile, 'utf8')).at(-1);
  } catch {
    captured = undefined;
  }
  return captured ?? task.pinnedId ?? task.targetId;
}
