// One run's turns, counted from its agent's own signals (harness/<agent>/conversing.ts turnOf):
// a prompt taken starts a turn, the turn-end signal ends it with the reply it carries. Every
// payload of a batch is counted, so a turn whose start and end arrive together is still a
// turn. Kept in memory and rebuilt from the signal file after a restart, as attention is.
//
// Marks that carry a prompt id (claude's prompt_id, on its UserPromptSubmit and the Stop of the
// same turn) tell a queued prompt from an interrupted turn: claude 2.1.332 fires
// UserPromptSubmit when it queues a message sent while it works, before the running turn's
// Stop (measured), so a start under another open turn waits for that turn's end; an end naming
// a waiting prompt ends the open turn unseen (an interrupt fires no Stop) and the ones before it.
import type { TurnMark } from '../../harness/index.js';

export interface Turn {
  /** 1, 2, 3… within the run. */
  n: number;
  /** The agent's own id of the prompt (claude's prompt_id), when its marks carry one. */
  id?: string;
  prompt: string | null;
  reply: string | null;
  startedAt: number;
  endedAt: number | null;
}

/** A prompt the agent said it took (with its text), for `send` to find its own. */
export interface Accepted {
  /** Increases with every prompt recorded, so a sender can ask for those after a point. */
  seq: number;
  text: string;
  turn: number;
}

export type TurnStep = { kind: 'started'; turn: Turn } | { kind: 'ended'; turn: Turn };

/** Turns whose texts are kept (older ones keep only their count). */
const KEEP_TURNS = 64;
const KEEP_PROMPTS = 64;

export class TurnLog {
  private readonly turns: Turn[] = [];
  private started = 0;
  private current: Turn | null = null;
  /** Prompts taken while a turn ran, each to start its own turn when the ones before end. */
  private readonly queued: Array<{ id: string; prompt: string | null }> = [];
  private readonly prompts: Accepted[] = [];
  private promptSeq = 0;

  /** The turn under way or, between turns, the last one (0 before the first). */
  get now(): number {
    return this.current?.n ?? this.started;
  }

  /** Turns that have ended. */
  get ended(): number {
    return this.current === null ? this.started : this.started - 1;
  }

  get open(): Turn | null {
    return this.current;
  }

  /** Turn `n`, while its texts are kept. */
  turn(n: number): Turn | null {
    return this.turns.find((t) => t.n === n) ?? null;
  }

  /** The last turn that ended, or null. */
  lastEnded(): Turn | null {
    return [...this.turns].reverse().find((t) => t.endedAt !== null) ?? null;
  }

  /** The sequence number the next recorded prompt gets. */
  get nextSeq(): number {
    return this.promptSeq + 1;
  }

  /** Prompts recorded from `seq` on. */
  promptsSince(seq: number): Accepted[] {
    return this.prompts.filter((p) => p.seq >= seq);
  }

  apply(mark: TurnMark, now: number): TurnStep[] {
    return mark.kind === 'start' ? this.start(mark.prompt, now, mark.id, mark.joins) : this.end(mark, now);
  }

  /** A prompt taken, by whatever says so (a signal, or the agent's store read by `send`). */
  start(prompt: string | null, now: number, id?: string, joins?: true): TurnStep[] {
    const open = this.current;
    // Answered in the turn under way (opencode's queue, pi's steer): no turn of its own.
    if (joins === true && open !== null && prompt !== null) {
      this.accept(open, prompt);
      return [];
    }
    if (id !== undefined && open !== null && (open.id === id || this.queued.some((q) => q.id === id))) return []; // told twice
    if (id !== undefined && open?.id !== undefined) {
      // Queued behind the turn under way: its turn starts when that one (and those queued before) end.
      this.queued.push({ id, prompt });
      if (prompt !== null) this.record(prompt, this.started + this.queued.length);
      return [];
    }
    if (open !== null && (prompt === null || open.prompt === null)) {
      // Busy again, or the text of the prompt that started it (opencode's status comes first).
      if (prompt !== null) this.accept(open, prompt);
      return [];
    }
    // A second prompt while one is open: the first ended unseen (claude fires no Stop on an interrupt).
    const steps: TurnStep[] = open === null ? [] : [this.close(open, null, now)];
    steps.push(this.open1(prompt, now, id));
    return steps;
  }

  private open1(prompt: string | null, now: number, id: string | undefined, recorded = false): TurnStep {
    const turn: Turn = { n: ++this.started, ...(id === undefined ? {} : { id }), prompt: null, reply: null, startedAt: now, endedAt: null };
    this.current = turn;
    this.turns.push(turn);
    if (this.turns.length > KEEP_TURNS) this.turns.shift();
    if (prompt !== null) {
      turn.prompt = prompt;
      if (!recorded) this.record(prompt, turn.n);
    }
    return { kind: 'started', turn };
  }

  private end(mark: Extract<TurnMark, { kind: 'end' }>, now: number): TurnStep[] {
    const prompts = mark.prompts ?? [];
    let steps: TurnStep[] = [];
    // Told again (qwen's idle_prompt after its Stop names the same prompt): it ended already, and
    // must not end the turn that began since (a queued prompt's).
    const told = mark.id === undefined || this.current?.id === mark.id ? undefined : this.turns.find((t) => t.id === mark.id && t.endedAt !== null);
    if (told !== undefined) {
      told.reply ??= mark.reply;
      return [];
    }
    const waiting = mark.id === undefined ? -1 : this.queued.findIndex((q) => q.id === mark.id);
    if (waiting >= 0) {
      // It names a queued prompt: the turn under way ended unseen, and so did those queued before it.
      if (this.current !== null) steps.push(this.close(this.current, null, now));
      for (const q of this.queued.splice(0, waiting)) steps.push(this.open1(q.prompt, now, q.id, true), this.close(this.current!, null, now));
      const own = this.queued.shift()!;
      steps.push(this.open1(own.prompt, now, own.id, true), this.close(this.current!, mark.reply, now));
      return [...steps, ...this.next(now)];
    }
    if (this.current === null) {
      // codex signals only the end: a turn that ended with none open was a whole turn.
      if (mark.opens !== true) {
        const last = this.lastEnded();
        if (last !== null && last.reply === null) last.reply = mark.reply;
        return [];
      }
      steps = this.start(prompts.at(-1) ?? null, now);
    }
    const open = this.current as Turn | null;
    if (open === null) return steps;
    for (const prompt of prompts) if (!this.prompts.some((p) => p.turn === open.n && p.text === prompt)) this.accept(open, prompt);
    return [...steps, this.close(open, mark.reply, now), ...this.next(now)];
  }

  /** The next queued prompt's turn, once the one before it ended. */
  private next(now: number): TurnStep[] {
    const q = this.queued.shift();
    return q === undefined ? [] : [this.open1(q.prompt, now, q.id, true)];
  }

  private accept(turn: Turn, text: string): void {
    turn.prompt ??= text;
    this.record(text, turn.n);
  }

  private record(text: string, turn: number): void {
    this.prompts.push({ seq: ++this.promptSeq, text, turn });
    if (this.prompts.length > KEEP_PROMPTS) this.prompts.shift();
  }

  private close(turn: Turn, reply: string | null, now: number): TurnStep {
    turn.reply = reply;
    turn.endedAt = now;
    this.current = null;
    return { kind: 'ended', turn };
  }
}
