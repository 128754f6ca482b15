// The feed's comparison of tasks before and after a change, and a wait's outcome over its tasks.
import { describe, expect, it } from 'vitest';
import type { FeedEvent, WaitTask } from '../../../src/control/protocol.js';
import { FleetFeed, type Seen } from '../../../src/fleet/turns/feed.js';
import { outcome } from '../../../src/fleet/turns/wait.js';

const seen = (id: number, more: Partial<Seen> = {}): Seen => ({ id, run: 0, label: `t${id}`, ended: false, exitStatus: null, killed: false, conversationId: null, ...more });

describe('FleetFeed', () => {
  it('tells what started, captured a conversation, exited and left since the last look, only while someone listens', () => {
    let tasks = [seen(1)];
    const feed = new FleetFeed(() => tasks, () => Date.UTC(2026, 11, 7));
    const got: FeedEvent[] = [];
    feed.changed(); // nobody listens: nothing kept
    const stop = feed.subscribe((e) => got.push(e), () => undefined);
    tasks = [seen(1, { conversationId: 'c1' }), seen(2, { conversationId: 'c2' })];
    feed.changed();
    tasks = [seen(1, { conversationId: 'c1', ended: true, exitStatus: 0 }), seen(2, { run: 1, conversationId: 'c2' })];
    feed.changed();
    tasks = [seen(2, { run: 1, conversationId: 'c2' })];
    feed.changed();
    expect(got.map((e) => [e.type, e.task, e.run, e.type === 'exited' ? e.exitStatus : (e.conversationId ?? null)])).toEqual([
      ['conversation', 1, 0, 'c1'], ['started', 2, 0, 'c2'],
      ['exited', 1, 0, 0], ['started', 2, 1, 'c2'],
      ['removed', 1, 0, null],
    ]);
    expect(got[0]?.at).toBe('2026-12-07T00:00:00.000Z');
    stop();
    expect(feed.listening).toBe(false);
  });

  it('tells every listener it ended, and a later one at once through `ended`', () => {
    const feed = new FleetFeed(() => [], () => 0);
    const why: string[] = [];
    feed.subscribe(() => undefined, (w) => why.push(w));
    feed.close('the fleet went down', true);
    expect(why).toEqual(['the fleet went down']);
    expect([feed.ended, feed.wentDown]).toEqual(['the fleet went down', true]);
  });
});

describe('a wait\'s outcome', () => {
  const task = (id: number, met: boolean, never: string | null = null): WaitTask => ({
    task: id, label: 't', state: 'running', attention: 'working', question: false, turn: 1, turnsEnded: 0, exitStatus: null, since: null, met, never,
  });

  it.each([
    ['any: one met', 'any', [task(1, false), task(2, true)], { met: true, done: true, why: null }],
    ['any: none yet', 'any', [task(1, false), task(2, false, 'task 2 exited')], { met: false, done: false, why: null }],
    ['any: none ever', 'any', [task(1, false, 'task 1 exited'), task(2, false, 'task 2 left the fleet')], { met: false, done: true, why: 'task 1 exited; task 2 left the fleet' }],
    ['all: all met', 'all', [task(1, true), task(2, true)], { met: true, done: true, why: null }],
    ['all: one not yet', 'all', [task(1, true), task(2, false)], { met: false, done: false, why: null }],
    ['all: one never', 'all', [task(1, true), task(2, false, 'task 2 exited with status 1')], { met: false, done: true, why: 'task 2 exited with status 1' }],
  ] as const)('%s', (_what, mode, tasks, expected) => {
    expect(outcome(tasks, mode)).toEqual(expected);
  });
});
