// The orchestration commands' words: their usage checks, and what they print of a verdict, a
// wait and an event.
import { describe, expect, it } from 'vitest';
import type { FeedEvent, WaitTask } from '../../src/control/protocol.js';
import { eventLine } from '../../src/commands/orchestration/events.js';
import { messageOf, sendExitCode, sendLine } from '../../src/commands/orchestration/send.js';
import { doingLine, waitOptionsOf } from '../../src/commands/orchestration/wait.js';
import { timeoutMs } from '../../src/commands/orchestration/seconds.js';

describe('send', () => {
  it('takes the text from words, refusing words and a file together, or nothing', async () => {
    expect(await messageOf(['fix', 'the', 'tests'], undefined, { cwd: '/' })).toBe('fix the tests');
    await expect(messageOf(['x'], 'f.md', { cwd: '/' })).rejects.toThrow(/not more than one/);
    await expect(messageOf([], undefined, { cwd: '/' })).rejects.toThrow(/send needs the text/);
    await expect(messageOf([], '/nonexistent/f.md', { cwd: '/' })).rejects.toThrow(/cannot read \/nonexistent\/f.md/);
  });

  it('says the verdict, and exits 0 only for submitted or typed', () => {
    const reply = { task: 3, verdict: 'submitted', via: 'tmux paste', turn: 2, conversationId: null, ms: 840, reason: null } as const;
    expect(sendLine(reply)).toBe('task 3: submitted (turn 2) in 840 ms');
    expect(sendLine({ ...reply, verdict: 'typed_not_submitted', turn: null, reason: 'still there' })).toBe('task 3: typed not submitted in 840 ms: still there');
    expect(['submitted', 'typed', 'typed_not_submitted', 'blocked', 'busy', 'exited', 'unconfirmed'].map((verdict) => sendExitCode({ ...reply, verdict: verdict as 'typed' }))).toEqual([0, 0, 1, 1, 1, 1, 1]);
  });

  it('takes --timeout in seconds', () => {
    expect(timeoutMs('1.5', 60_000)).toBe(1500);
    expect(timeoutMs(undefined, 60_000)).toBe(60_000);
    for (const bad of ['0', '-1', 'soon', '1e3', '86401']) expect(() => timeoutMs(bad, null), bad).toThrow(/--timeout/);
  });
});

describe('wait', () => {
  it('refuses words that make no sense together', () => {
    expect(waitOptionsOf(['1', '2'], { any: true, until: 'needs-you', turn: '3', timeout: '10' })).toEqual({ tasks: ['1', '2'], mode: 'any', until: 'needs-you', turn: 3, timeoutMs: 10_000 });
    expect(waitOptionsOf(['1'], {})).toMatchObject({ mode: 'all', until: 'waiting', turn: null, timeoutMs: null });
    for (const bad of [{ any: true, all: true }, { until: 'idle' }, { turn: '0' }, { turn: 'x' }, { until: 'exited', turn: '1' }]) {
      expect(() => waitOptionsOf(['1'], bad), JSON.stringify(bad)).toThrow();
    }
  });

  it('says what each task is doing', () => {
    const now = Date.UTC(2026, 11, 7, 10, 0, 42);
    const t = (more: Partial<WaitTask>): WaitTask => ({ task: 3, label: 'claude', state: 'running', attention: 'working', question: false, turn: 2, turnsEnded: 1, exitStatus: null, since: '2026-12-07T10:00:00.000Z', met: false, never: null, ...more });
    expect(doingLine(t({}), now)).toBe('task 3 (claude): working on turn 2 for 42s');
    expect(doingLine(t({ attention: 'waiting', turn: 2 }), now)).toBe('task 3 (claude): waiting after turn 2 for 42s');
    expect(doingLine(t({ attention: 'waiting', question: true }), now)).toBe('task 3 (claude): asking a question after turn 2 for 42s');
    expect(doingLine(t({ state: 'exited', exitStatus: 1, attention: null }), now)).toBe('task 3 (claude): exited with status 1 for 42s');
    expect(doingLine(t({ state: 'removed', attention: null, since: null }), now)).toBe('task 3 (claude): removed from the fleet');
  });
});

describe('events', () => {
  it('prints a line per event, a host\'s words made safe for the terminal', () => {
    const e = (more: Partial<FeedEvent>): FeedEvent => ({ type: 'waiting', task: 3, run: 0, at: '2026-12-07T10:00:00.000Z', label: 'claude', ...more });
    expect(eventLine(e({ turn: 2 }))).toBe('2026-12-07T10:00:00.000Z task 3 (claude) waiting, turn 2');
    expect(eventLine(e({ type: 'question', turn: 2, text: 'Deploy?' }))).toBe('2026-12-07T10:00:00.000Z task 3 (claude) question, turn 2: Deploy?');
    expect(eventLine(e({ type: 'exited', exitStatus: 0 }))).toBe('2026-12-07T10:00:00.000Z task 3 (claude) exited with status 0');
    expect(eventLine(e({ type: 'conversation', conversationId: 'abc' }))).toBe('2026-12-07T10:00:00.000Z task 3 (claude) conversation abc');
    expect(eventLine(e({ host: 'gpu\x1b[2J', label: 'x\x07' }))).toBe('2026-12-07T10:00:00.000Z gpu?[2J task 3 (x?) waiting');
  });
});
