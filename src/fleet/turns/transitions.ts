// The steps of a task's attention, each with its turn: what an AttentionChange lists between
// its `from` and its state, so a turn that came and went inside one read is still told.
import type { Attention, AttentionState } from '../../harness/index.js';
import type { TurnLog, TurnStep } from './turn-log.js';

/** One step of a task's attention, with the turn it belongs to. */
export interface Transition {
  attention: Attention | null;
  /** The turn under way, or the one that just ended; null for an agent whose turns are not counted. */
  turn: number | null;
  /** A question's or permission's text. */
  message: string | null;
  question: boolean;
  at: number;
}

/** The transition a turn's start or end makes: working on it, or waiting after it. */
export function turnTransition(step: TurnStep, at: number): Transition {
  return { attention: step.kind === 'started' ? 'working' : 'waiting', turn: step.turn.n, message: null, question: false, at };
}

/** The transition to a state: its turn is the one under way, else the one that ended. */
export function stateTransition(state: AttentionState, turns: TurnLog | null, at: number): Transition {
  const turn = turns === null ? null : turns.open?.n ?? (state.attention === 'working' ? turns.now + 1 : turns.now);
  return { attention: state.attention, turn, message: state.message, question: state.question === true, at };
}

/** Adds a transition, unless it repeats the last one (a turn's working and the state's): then the state's message is kept. */
export function push(list: Transition[], next: Transition): void {
  const last = list.at(-1);
  if (last !== undefined && last.attention === next.attention && last.question === next.question && last.turn === next.turn) {
    last.message = next.message ?? last.message;
    return;
  }
  list.push(next);
}
