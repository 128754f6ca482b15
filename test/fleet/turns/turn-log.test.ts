// A run's turns from its signals' marks: every mark counts, whatever batch it came in.
import { describe, expect, it } from 'vitest';
import { TurnLog } from '../../../src/fleet/turns/turn-log.js';

const S = '11111111-2222-4333-8444-555555555555';
const start = (prompt: string | null = null) => ({ kind: 'start' as const, sessionId: S, prompt });
const end = (reply: string | null = null, more: { opens?: boolean; prompts?: string[] } = {}) => ({ kind: 'end' as const, sessionId: S, reply, ...more });

describe('TurnLog', () => {
  it('counts a prompt and its end as one turn, keeping both texts', () => {
    const log = new TurnLog();
    expect(log.now).toBe(0);
    expect(log.apply(start('q'), 1).map((s) => [s.kind, s.turn.n])).toEqual([['started', 1]]);
    expect([log.now, log.ended, log.open?.n]).toEqual([1, 0, 1]);
    expect(log.apply(end('a'), 2).map((s) => [s.kind, s.turn.n])).toEqual([['ended', 1]]);
    expect([log.now, log.ended, log.open]).toEqual([1, 1, null]);
    expect(log.turn(1)).toEqual({ n: 1, prompt: 'q', reply: 'a', startedAt: 1, endedAt: 2 });
    expect(log.lastEnded()?.reply).toBe('a');
  });

  it('records each prompt it takes for a sender to find, from a sequence number on', () => {
    const log = new TurnLog();
    log.apply(start('one'), 1);
    log.apply(end(), 2);
    const since = log.nextSeq;
    log.apply(start('two'), 3);
    expect(log.promptsSince(since)).toEqual([{ seq: since, text: 'two', turn: 2 }]);
  });

  it('gives the prompt to a turn a status opened first (opencode: busy, then the text), without a second turn', () => {
    const log = new TurnLog();
    log.apply(start(null), 1);
    expect(log.apply(start('the text'), 2)).toEqual([]);
    expect(log.open?.prompt).toBe('the text');
    expect(log.promptsSince(0).map((p) => p.turn)).toEqual([1]);
  });

  it("ends a turn left open when the next prompt comes (claude's interrupt fires no Stop)", () => {
    const log = new TurnLog();
    log.apply(start('first'), 1);
    expect(log.apply(start('second'), 2).map((s) => [s.kind, s.turn.n])).toEqual([['ended', 1], ['started', 2]]);
    expect(log.turn(1)?.reply).toBeNull();
  });

  it("takes codex's end with no start as a whole turn, its prompt the notify's", () => {
    const log = new TurnLog();
    expect(log.apply(end('a', { opens: true, prompts: ['q'] }), 5).map((s) => [s.kind, s.turn.n])).toEqual([['started', 1], ['ended', 1]]);
    expect(log.turn(1)).toMatchObject({ prompt: 'q', reply: 'a' });
    expect(log.promptsSince(0)).toEqual([{ seq: 1, text: 'q', turn: 1 }]);
    // A turn send opened from the store is closed by the notify, not doubled.
    log.start('r', 6);
    log.apply(end('b', { opens: true, prompts: ['r'] }), 7);
    expect([log.now, log.ended]).toEqual([2, 2]);
    expect(log.promptsSince(0).map((p) => p.text)).toEqual(['q', 'r']);
  });

  it('a repeated end neither counts nor replaces a reply, but fills a missing one', () => {
    const log = new TurnLog();
    log.apply(start('q'), 1);
    log.apply(end(null), 2);
    expect(log.apply(end('late reply'), 3)).toEqual([]);
    expect(log.apply(end('another'), 4)).toEqual([]);
    expect([log.ended, log.turn(1)?.reply]).toEqual([1, 'late reply']);
  });

  it('keeps the count of every turn but the texts of the last ones only', () => {
    const log = new TurnLog();
    for (let i = 0; i < 100; i++) {
      log.apply(start(`q${i}`), i);
      log.apply(end(`a${i}`), i);
    }
    expect(log.ended).toBe(100);
    expect(log.turn(100)?.reply).toBe('a99');
    expect(log.turn(1)).toBeNull();
  });
});

describe('TurnLog with prompt ids (claude)', () => {
  const startId = (id: string, prompt: string) => ({ kind: 'start' as const, sessionId: S, prompt, id });
  const endId = (id: string, reply: string) => ({ kind: 'end' as const, sessionId: S, reply, id });

  it("queues a prompt taken while a turn runs (2.1.332's UserPromptSubmit at queue time) and starts its turn at the first's Stop", () => {
    const log = new TurnLog();
    log.apply(startId('A', 'first'), 1);
    expect(log.apply(startId('B', 'queued'), 2)).toEqual([]);
    expect(log.promptsSince(0)).toEqual([{ seq: 1, text: 'first', turn: 1 }, { seq: 2, text: 'queued', turn: 2 }]);
    expect(log.apply(endId('A', 'reply A'), 3).map((s) => [s.kind, s.turn.n])).toEqual([['ended', 1], ['started', 2]]);
    expect(log.apply(endId('B', 'reply B'), 4).map((s) => [s.kind, s.turn.n])).toEqual([['ended', 2]]);
    expect([log.turn(1)?.reply, log.turn(2)?.reply, log.turn(2)?.prompt]).toEqual(['reply A', 'reply B', 'queued']);
  });

  it('ends an interrupted turn (no Stop) when the Stop of the prompt after it comes', () => {
    const log = new TurnLog();
    log.apply(startId('A', 'interrupted'), 1);
    log.apply(startId('B', 'next'), 2);
    expect(log.apply(endId('B', 'reply B'), 3).map((s) => [s.kind, s.turn.n])).toEqual([['ended', 1], ['started', 2], ['ended', 2]]);
    expect([log.turn(1)?.reply, log.turn(2)?.reply, log.open]).toEqual([null, 'reply B', null]);
  });

  it('takes a prompt told twice once', () => {
    const log = new TurnLog();
    log.apply(startId('A', 'q'), 1);
    expect(log.apply(startId('A', 'q'), 2)).toEqual([]);
    expect(log.now).toBe(1);
  });

  it("takes an end told again (qwen's idle_prompt after its Stop) as nothing, also once the next turn began", () => {
    const log = new TurnLog();
    log.apply(startId('A', 'first'), 1);
    log.apply(endId('A', 'reply A'), 2);
    log.apply(startId('B', 'second'), 3);
    expect(log.apply({ kind: 'end', sessionId: S, reply: null, id: 'A' }, 4)).toEqual([]);
    expect([log.open?.n, log.turn(1)?.reply]).toEqual([2, 'reply A']);
    // An end naming no prompt ends the turn under way (qwen's return to its prompt after Esc).
    expect(log.apply({ kind: 'end', sessionId: S, reply: null }, 5).map((s) => [s.kind, s.turn.n])).toEqual([['ended', 2]]);
  });
});

describe('TurnLog, a prompt that joins the turn under way (opencode, kilo, pi)', () => {
  it('answers it in the running turn: recorded for its sender, no turn of its own, one end for both', () => {
    const log = new TurnLog();
    log.apply({ kind: 'start', sessionId: S, prompt: 'first', joins: true }, 1);
    expect(log.apply({ kind: 'start', sessionId: S, prompt: 'steered', joins: true }, 2)).toEqual([]);
    expect(log.promptsSince(0).map((p) => [p.text, p.turn])).toEqual([['first', 1], ['steered', 1]]);
    expect(log.apply(end('both answered'), 3).map((s) => [s.kind, s.turn.n])).toEqual([['ended', 1]]);
    expect([log.now, log.ended]).toEqual([1, 1]);
  });
});
