// The orchestration ops on the wire: requests validated by the supervisor, replies and events
// checked by the client.
import { describe, expect, it } from 'vitest';
import { isReply, parseRequest, PROTOCOL_VERSION } from '../../src/control/protocol.js';
import { feedEventCheck, replyChecks } from '../../src/control/replies.js';

const line = (body: object) => JSON.stringify({ v: PROTOCOL_VERSION, ...body });

describe('orchestration requests', () => {
  it.each([
    { op: 'send', task: '3', text: 'hi\nthere', now: false, timeoutMs: 60_000 },
    { op: 'wait', tasks: ['1', '%4', '@2'], mode: 'any', until: 'needs-you', turn: 2, timeoutMs: null },
    { op: 'output', task: '3', turn: null, screen: true },
    { op: 'events', task: null },
  ])('takes %j', (body) => {
    expect(parseRequest(line(body))).toEqual(body);
  });

  it.each([
    [{ op: 'send', task: 'three', text: 'x', now: false, timeoutMs: 1 }, /task: expected a task id/],
    [{ op: 'send', task: '3', text: 'x', now: false, timeoutMs: 86_400_001 }, /timeoutMs/],
    [{ op: 'wait', tasks: [], mode: 'any', until: 'waiting', turn: null, timeoutMs: null }, /tasks/],
    [{ op: 'wait', tasks: ['1'], mode: 'some', until: 'waiting', turn: null, timeoutMs: null }, /mode/],
    [{ op: 'wait', tasks: ['1'], mode: 'all', until: 'idle', turn: null, timeoutMs: null }, /until/],
    [{ op: 'wait', tasks: ['1'], mode: 'all', until: 'waiting', turn: 0, timeoutMs: null }, /turn/],
    [{ op: 'output', task: '1', turn: 1.5, screen: false }, /turn/],
  ] as const)('refuses %j', (body, problem) => {
    const parsed = parseRequest(line(body));
    expect(isReply(parsed)).toBe(true);
    expect(isReply(parsed) && !parsed.ok && parsed.error).toMatch(problem);
  });
});

describe('orchestration replies', () => {
  it('reads a verdict, and refuses one it does not know', () => {
    const reply = { task: 3, verdict: 'submitted', via: 'tmux paste', turn: 1, conversationId: null, ms: 5, reason: null };
    expect(replyChecks.send(reply)).toEqual(reply);
    expect(() => replyChecks.send({ ...reply, verdict: 'delivered' })).toThrow(/verdict: expected submitted \| typed_not_submitted/);
  });

  it('reads an event, keys it does not know dropped', () => {
    expect(feedEventCheck({ type: 'waiting', task: 1, run: 0, at: 'x', label: 'claude', turn: 2, extra: true })).toEqual({ type: 'waiting', task: 1, run: 0, at: 'x', label: 'claude', turn: 2 });
    expect(() => feedEventCheck({ type: 'exploded', task: 1, run: 0, at: 'x', label: 'l' })).toThrow(/type/);
  });
});
