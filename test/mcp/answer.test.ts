// A command line's run as a tool's answer: the JSON as printed, failures in words.
import { describe, expect, it } from 'vitest';
import { answerOf, commandWords, runAnswer } from '../../src/mcp/answer.js';
import type { Captured } from '../../src/mcp/captured.js';

const run = (over: Partial<Captured>): Captured => ({ argv: ['ls', '--json'], exitCode: 0, stdout: '', stderr: '', ms: 5, ...over });

describe('answerOf', () => {
  it('answers the JSON document the command printed, as printed', () => {
    expect(answerOf(run({ stdout: '[\n  {"id": 1}\n]\n' }), 30_000)).toEqual({ content: [{ type: 'text', text: '[\n  {"id": 1}\n]' }] });
  });

  it('answers a document with a non-zero exit, adding its stderr (a send not taken)', () => {
    const answer = answerOf(run({ argv: ['send'], exitCode: 1, stdout: '{"verdict":"busy"}\n', stderr: 'task 3: busy in 25000 ms\n' }), 30_000);
    expect(answer).toEqual({ content: [{ type: 'text', text: '{"verdict":"busy"}' }, { type: 'text', text: 'exit 1: task 3: busy in 25000 ms' }] });
  });

  it('says a wait that timed out is pending, to be asked again', () => {
    const answer = answerOf(run({ argv: ['wait'], exitCode: 1, stdout: '{"met":false,"timedOut":true,"tasks":[]}\n', stderr: 'fleetcom: wait timed out\n' }), 30_000);
    expect(answer.isError).toBeUndefined();
    expect(answer.content[1]?.text).toMatch(/^exit 1: still pending: .*call wait again/);
  });

  it.each([
    [run({ exitCode: 3, stderr: 'fleetcom: no fleet is running (start one with: fleetcom up)\n' }), 'fleetcom ls --json failed (exit 3: no fleet is running):\nfleetcom: no fleet is running (start one with: fleetcom up)'],
    [run({ exitCode: 2, stderr: "fleetcom: unknown option '--x'\n" }), "fleetcom ls --json failed (exit 2: bad usage):\nfleetcom: unknown option '--x'"],
    [run({ exitCode: 1, stdout: 'not json' }), 'fleetcom ls --json failed (exit 1)'],
    [run({ exitCode: 0, stdout: '' }), 'fleetcom ls --json failed (exit 0)'],
    [run({ exitCode: null, stdout: '[]' }), 'fleetcom ls --json gave no answer within 30 s (it may still finish: ls shows the fleet as it is)'],
  ])('is a tool error without a document: %#', (captured, message) => {
    expect(answerOf(captured, 30_000)).toEqual({ content: [{ type: 'text', text: message }], isError: true });
  });
});

describe('runAnswer', () => {
  it('is the task and its first message’s verdict', () => {
    const send = run({ argv: ['send'], stdout: '{"verdict":"submitted","turn":1}\n' });
    expect(runAnswer(4, send, 30_000, null).content).toEqual([{ type: 'text', text: '{"task":4,"send":{"verdict":"submitted","turn":1}}' }]);
    expect(runAnswer(4, null, 30_000, null).content).toEqual([{ type: 'text', text: '{"task":4,"send":null}' }]);
  });

  it('says the task started when its first message failed', () => {
    const answer = runAnswer(4, run({ argv: ['send'], exitCode: 1, stderr: 'fleetcom: boom\n' }), 30_000, null);
    expect(answer.isError).toBeUndefined();
    expect(answer.content[1]?.text).toBe('task 4 started; its first message was not sent: fleetcom send failed (exit 1):\nfleetcom: boom');
  });
});

describe('commandWords', () => {
  it('quotes what a shell would split', () => {
    expect(commandWords(['send', '--', '%3', 'two words', 'a"b'])).toBe('fleetcom send -- %3 "two words" "a\\"b"');
  });

  it('cuts a long message to its start and its length', () => {
    expect(commandWords(['send', '--', '3', `${'x'.repeat(100_000)} y`])).toBe(`fleetcom send -- 3 "${'x'.repeat(60)}…(100002 characters)"`);
    expect(commandWords(['send', '--', '3', 'x'.repeat(100)])).toBe(`fleetcom send -- 3 "${'x'.repeat(60)}…(100 characters)"`);
  });
});
