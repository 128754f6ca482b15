// The fleet's transitions as events, for `events`, `wait` and `send`: a task started, its
// conversation captured, working on a turn, waiting after it, asking a question or a
// permission, exited, removed. Attention comes from each AttentionChange's transitions (every
// one of a batch, in order); the rest from comparing the tasks after each change with what
// was seen before, which only runs while someone listens.
import type { FeedEvent } from '../../control/protocol.js';
import type { AttentionChange, Transition } from '../attention/attention.js';
import { labelOf, type Task } from '../supervisor/task.js';

export type { FeedEvent };

/** What the comparison keeps of a task. */
export interface Seen {
  id: number;
  run: number;
  label: string;
  ended: boolean;
  exitStatus: number | null;
  killed: boolean;
  conversationId: string | null;
}

export type Listener = (event: FeedEvent) => void;

export class FleetFeed {
  private readonly listeners = new Set<Listener>();
  private readonly closers = new Set<(why: string) => void>();
  private known: Map<number, Seen> | null = null;
  private closed: string | null = null;
  private down = false;

  /** `look`: the tasks as they are now (called only while someone listens). */
  constructor(private readonly look: () => Seen[], private readonly now: () => number) {}

  get listening(): boolean {
    return this.listeners.size > 0;
  }

  /** Why the feed ended (the fleet went down, its supervisor stopped), or null while it runs. */
  get ended(): string | null {
    return this.closed;
  }

  /** It ended because the fleet went down (not because its supervisor stopped with the tasks running on). */
  get wentDown(): boolean {
    return this.down;
  }

  /** Listens until the returned function is called; `onClose` hears the feed end. */
  subscribe(listener: Listener, onClose: (why: string) => void): () => void {
    if (this.listeners.size === 0) this.known = new Map(this.look().map((s) => [s.id, s]));
    this.listeners.add(listener);
    this.closers.add(onClose);
    return () => {
      this.listeners.delete(listener);
      this.closers.delete(onClose);
      if (this.listeners.size === 0) this.known = null;
    };
  }

  /** The fleet changed: what started, ended, left or captured a conversation since the last look. */
  changed(): void {
    if (this.known === null) return;
    const at = new Date(this.now()).toISOString();
    const now = new Map(this.look().map((s) => [s.id, s]));
    const events: FeedEvent[] = [];
    for (const [id, seen] of now) {
      const before = this.known.get(id);
      const base = { task: id, run: seen.run, at, label: seen.label };
      if (before === undefined || before.run !== seen.run) events.push({ type: 'started', ...base, conversationId: seen.conversationId });
      else if (seen.conversationId !== before.conversationId && seen.conversationId !== null) events.push({ type: 'conversation', ...base, conversationId: seen.conversationId });
      if (seen.ended && (before === undefined || before.run !== seen.run || !before.ended)) {
        events.push({ type: 'exited', ...base, exitStatus: seen.exitStatus, killed: seen.killed, conversationId: seen.conversationId });
      }
    }
    for (const [id, before] of this.known) if (!now.has(id)) events.push({ type: 'removed', task: id, run: before.run, at, label: before.label });
    this.known = now;
    for (const event of events) this.emit(event);
  }

  /** A task's attention changed: one event per transition. */
  attention(change: AttentionChange): void {
    if (!this.listening) return;
    const { task } = change;
    for (const t of change.transitions) {
      const event = transitionEvent(task, t);
      if (event !== null) this.emit(event);
    }
  }

  /** The fleet goes down (or its supervisor stops): every listener is told, and later ones at once. */
  close(why: string, down: boolean): void {
    if (this.closed === null) this.down = down;
    this.closed ??= why;
    for (const close of [...this.closers]) close(why);
  }

  private emit(event: FeedEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

function transitionEvent(task: Task, t: Transition): FeedEvent | null {
  const base = { task: task.id, run: task.run, at: new Date(t.at).toISOString(), label: labelOf(task), turn: t.turn };
  switch (t.attention) {
    case 'working':
      return { type: 'working', ...base };
    case 'waiting':
      return t.question ? { type: 'question', ...base, text: t.message } : { type: 'waiting', ...base };
    case 'permission':
      return { type: 'permission', ...base, text: t.message };
    default:
      return null;
  }
}

/** What the feed compares of a task, with its conversation id now. */
export function seenOf(task: Task, conversationId: string | null): Seen {
  return { id: task.id, run: task.run, label: labelOf(task), ended: task.endedAt !== null, exitStatus: task.exitStatus, killed: task.killed, conversationId };
}
