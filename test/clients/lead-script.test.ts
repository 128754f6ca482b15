// The mock's lead script (clients/lead-script.ts): each step read from the conversation so far.
import { describe, expect, it } from 'vitest';
import { LEAD_MARK, leadStep, WORKER_MESSAGE } from '../../clients/lead-script.js';

let n = 0;
/** The conversation after `steps` tool calls, each [name, the text it answered, is_error]. */
function conversation(...steps: Array<[string, string, boolean?]>): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: '<system-reminder>x</system-reminder>' }, { type: 'text', text: `${LEAD_MARK} /p/project` }] }];
  for (const [name, result, isError] of steps) {
    const id = `toolu_${++n}`;
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id, name: `mcp__fleetcom__${name}`, input: {} }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: result }], ...(isError ? { is_error: true } : {}) }] });
  }
  return messages;
}

describe('leadStep', () => {
  it('is not a lead conversation without the mark', () => {
    expect(leadStep([{ role: 'user', content: 'hello' }])).toBeNull();
  });

  it('runs a codex worker in the project named after the mark, sends it the message, waits for its turn, reads its reply', () => {
    expect(leadStep(conversation())).toEqual({ kind: 'tool', name: 'mcp__fleetcom__run', input: { command: 'codex', cwd: '/p/project', name: 'worker' } });
    const run: [string, string] = ['run', '{"task":2,"send":null}'];
    expect(leadStep(conversation(run))).toEqual({ kind: 'tool', name: 'mcp__fleetcom__send', input: { task: 2, text: WORKER_MESSAGE } });
    const send: [string, string] = ['send', '{"task":2,"verdict":"submitted","turn":1}'];
    expect(leadStep(conversation(run, send))).toEqual({ kind: 'tool', name: 'mcp__fleetcom__wait', input: { tasks: [2], turn: 1 } });
    const pending: [string, string] = ['wait', '{"met":false,"timedOut":true,"tasks":[]}\nexit 1: still pending'];
    expect(leadStep(conversation(run, send, pending))).toEqual({ kind: 'tool', name: 'mcp__fleetcom__wait', input: { tasks: [2], turn: 1 } });
    const met: [string, string] = ['wait', '{"met":true,"timedOut":false,"tasks":[]}'];
    expect(leadStep(conversation(run, send, pending, met))).toEqual({ kind: 'tool', name: 'mcp__fleetcom__output', input: { task: 2 } });
    const output: [string, string] = ['output', '{"task":2,"turn":1,"text":"fleetcom-mock-reply 3"}'];
    expect(leadStep(conversation(run, send, pending, met, output))).toEqual({ kind: 'text', text: 'fleetcom-mock-lead-done: the worker answered "fleetcom-mock-reply 3"' });
  });

  it('stops with a reason on an error, a send not taken or a wait that cannot be met', () => {
    expect(leadStep(conversation(['run', 'failed (exit 3)', true]))).toMatchObject({ kind: 'text', text: expect.stringMatching(/^fleetcom-mock-lead-failed: mcp__fleetcom__run answered an error/) });
    expect(leadStep(conversation(['run', '{"task":2}'], ['send', '{"verdict":"busy"}']))).toMatchObject({ text: expect.stringMatching(/send was not submitted/) });
    expect(leadStep(conversation(['run', '{"task":2}'], ['send', '{"verdict":"submitted","turn":1}'], ['wait', '{"met":false,"timedOut":false}']))).toMatchObject({ text: expect.stringMatching(/cannot be met/) });
  });
});
