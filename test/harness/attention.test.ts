// The event → attention machine, fed the real claude 2.1.197 hook payloads (test/fixtures/claude-hooks)
// and codex notify payloads of the shape real-clients.md records.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applySignal, claudeSignal, codexSignal, NO_ATTENTION, titleStep, workingFromOutput, worthNotifying,
  type AttentionState, type SignalResult,
} from '../../src/harness/attention.js';
import { codexTitle } from '../../src/harness/codex/title.js';
import { geminiTitle } from '../../src/harness/gemini/title.js';

const recorded = readFileSync(new URL('../fixtures/claude-hooks/2.1.197.jsonl', import.meta.url), 'utf8')
  .split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
const SID = 'b76c5d24-78e9-4c78-b673-5cc322b36d7c';
const OTHER = '11111111-2222-4333-8444-555555555555';

function run(payloads: unknown[], parse: (p: unknown) => SignalResult, start: AttentionState = NO_ATTENTION) {
  let state = start;
  const seen: Array<string | null> = [];
  payloads.forEach((payload, i) => {
    const result = parse(payload);
    if (result.kind !== 'signal') return;
    const step = applySignal(state, result.signal, 1000 * (i + 1));
    if (step.kind === 'ignored') return;
    state = step.state;
    if (step.kind === 'changed') seen.push(step.state.attention);
  });
  return { state, seen };
}

describe('claude hook payloads (recorded on 2.1.197)', () => {
  it('go waiting at start, working on a prompt, waiting after the reply, permission on the dialog, null at the end', () => {
    const { seen } = run(recorded, claudeSignal);
    expect(seen).toEqual(['waiting', 'working', 'waiting', 'working', 'permission', null]);
  });

  it('keep the notification text of a permission prompt and the time the state began', () => {
    const upToPermission = recorded.slice(0, recorded.findIndex((p) => p.notification_type === 'permission_prompt') + 1);
    const { state } = run(upToPermission, claudeSignal);
    expect(state).toMatchObject({ attention: 'permission', message: 'Claude needs your permission', conversation: SID });
    expect(state.since).toBe(1000 * upToPermission.length);
  });

  it('read only the event name, ids, notification type and message: the prompt goes nowhere', () => {
    const prompt = recorded.find((p) => p.hook_event_name === 'UserPromptSubmit');
    const result = claudeSignal(prompt);
    expect(JSON.stringify(result)).not.toContain(String(prompt?.prompt));
  });

  it('a question (AskUserQuestion\'s PreToolUse) waits with its text, the permission_prompt after it changes nothing, PostToolUse works again', () => {
    // The order measured on 2.1.197 and 2.1.332 (spec/real-clients.md): PreToolUse, Notification, PostToolUse, Stop.
    const base = { session_id: SID, transcript_path: '/t', cwd: '/w' };
    const questions = [{ question: 'Deploy to prod now?', header: 'Deploy', options: [{ label: 'Yes' }, { label: 'No' }], multiSelect: false }];
    const payloads = [
      { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'go' },
      { ...base, hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_input: { questions } },
      { ...base, hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'Claude needs your permission' },
    ];
    const asked = run(payloads, claudeSignal, { ...NO_ATTENTION, conversation: SID });
    expect(asked.seen).toEqual(['working', 'waiting']);
    expect(asked.state).toMatchObject({ attention: 'waiting', question: true, message: 'Deploy to prod now?', since: 2000 });
    const answered = run([{ ...base, hook_event_name: 'PostToolUse', tool_name: 'AskUserQuestion', tool_input: {} }, { ...base, hook_event_name: 'Stop' }], claudeSignal, asked.state);
    expect(answered.seen).toEqual(['working', 'waiting']);
    expect(answered.state.question).toBeUndefined();
    // Two questions at once, and a plan to approve.
    const two = claudeSignal({ ...base, hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_input: { questions: [...questions, { question: 'And staging?' }] } });
    expect(two.kind === 'signal' && two.signal.message).toBe('Deploy to prod now? (+1 more)');
    const plan = claudeSignal({ ...base, hook_event_name: 'PreToolUse', tool_name: 'ExitPlanMode', tool_input: { plan: '\n## Refactor the parser\n1. split' } });
    expect(plan).toMatchObject({ kind: 'signal', signal: { attention: 'waiting', question: true, message: 'Plan to approve: Refactor the parser' } });
    const junk = claudeSignal({ ...base, hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_input: 'x' });
    expect(junk.kind === 'signal' && junk.signal.message).toBe('Claude has a question for you');
  });

  it('a permission prompt with no question before it is a permission, as before', () => {
    const step = applySignal({ attention: 'working', since: 1, message: null, conversation: SID },
      (claudeSignal({ session_id: SID, hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'Claude needs your permission' }) as { kind: 'signal'; signal: never }).signal, 2);
    expect(step).toMatchObject({ kind: 'changed', state: { attention: 'permission', message: 'Claude needs your permission' } });
  });

  it('ignore hooks that carry no attention (PreToolUse, PermissionRequest)', () => {
    for (const event of ['PreToolUse', 'PermissionRequest']) {
      const payload = recorded.find((p) => p.hook_event_name === event);
      expect(claudeSignal(payload)).toMatchObject({ kind: 'ignored' });
    }
  });
});

describe('the attention machine', () => {
  const waiting: AttentionState = { attention: 'waiting', since: 5, message: null, conversation: SID };

  it.each([
    ['a payload of another conversation (subagent, worker, leaked env)', { hook_event_name: 'UserPromptSubmit', session_id: OTHER }],
    ['an id that fails the strict check', { hook_event_name: 'Stop', session_id: 'not-an-id' }],
    ['a payload without an event name', { session_id: SID }],
    ['a session_id of the wrong type', { hook_event_name: 'Stop', session_id: 42 }],
    ['a Notification of an unknown type', { hook_event_name: 'Notification', session_id: SID, notification_type: 'auth_success' }],
    ['not an object at all', 'garbage'],
  ])('changes nothing for %s', (_what, payload) => {
    const { state, seen } = run([payload], claudeSignal, waiting);
    expect(seen).toEqual([]);
    expect(state).toEqual(waiting);
  });

  it('accepts unknown keys (new client versions add keys)', () => {
    const { state } = run([{ hook_event_name: 'UserPromptSubmit', session_id: SID, brand_new: { x: 1 } }], claudeSignal, waiting);
    expect(state.attention).toBe('working');
  });

  it('follows /clear: a SessionStart makes its id the current conversation', () => {
    const { state } = run([
      { hook_event_name: 'SessionEnd', session_id: SID, reason: 'clear' },
      { hook_event_name: 'SessionStart', session_id: OTHER, source: 'clear' },
      { hook_event_name: 'UserPromptSubmit', session_id: OTHER },
      { hook_event_name: 'Stop', session_id: SID },
    ], claudeSignal, waiting);
    expect(state).toMatchObject({ attention: 'working', conversation: OTHER });
  });

  it('keeps the start of a wait through an idle reminder, taking its message', () => {
    const idle = { hook_event_name: 'Notification', session_id: SID, notification_type: 'idle_prompt', message: 'Claude is waiting for your input' };
    const { state, seen } = run([idle], claudeSignal, waiting);
    expect(seen).toEqual([]);
    expect(state).toMatchObject({ attention: 'waiting', since: 5, message: 'Claude is waiting for your input' });
  });

  it('strips control characters from a message and bounds its length', () => {
    const result = claudeSignal({ hook_event_name: 'Notification', session_id: SID, notification_type: 'permission_prompt', message: `a\u001b[31mb\u0007${'x'.repeat(500)}` });
    expect(result.kind === 'signal' && result.signal.message).toMatch(/^a \[31mb x+…$/);
    expect(result.kind === 'signal' && result.signal.message?.length).toBe(200);
  });

  it.each([
    [null, 'waiting', true, false], [null, 'waiting', false, true], ['working', 'waiting', false, true],
    ['working', 'waiting', true, false], ['permission', 'waiting', false, true], ['working', 'permission', false, true],
    ['permission', 'permission', false, false], ['waiting', 'waiting', false, false], ['waiting', 'working', false, false],
    ['waiting', null, false, false],
  ] as const)('notifies %s → %s (a conversation start: %s): %s', (from, to, starts, expected) => {
    expect(worthNotifying(from, to, { starts })).toBe(expected);
  });
});

describe('codex', () => {
  const thread = '019f5453-de22-7240-b2e5-0d32692aa6d9';
  const turn = { type: 'agent-turn-complete', 'thread-id': thread, 'turn-id': 't', cwd: '/w', client: 'codex-tui', 'input-messages': ['hi'], 'last-assistant-message': 'done' };

  it('a completed turn of the conversation waits; the title thread\'s does nothing', () => {
    const start: AttentionState = { attention: 'working', since: 1, message: null, conversation: thread };
    const title = { ...turn, 'thread-id': '019f5453-de22-7240-b2e5-0d32692aa6da' };
    expect(run([title], codexSignal, start).seen).toEqual([]);
    expect(run([turn], codexSignal, start).seen).toEqual(['waiting']);
  });

  it('output more than 2 s after the wait began means working again; output within it does not', () => {
    const state: AttentionState = { attention: 'waiting', since: 10_000, message: null, conversation: thread };
    expect(workingFromOutput(state, 11_500, 2000)).toBeNull();
    expect(workingFromOutput(state, 12_500, 2000)).toMatchObject({ attention: 'working', since: 12_500 });
    expect(workingFromOutput({ ...state, attention: 'working' }, 99_000, 2000)).toBeNull();
  });

  // As measured on 0.171.0 (clients/README.md): the spinner while a turn runs, the blinking
  // "Action Required" while the approval prompt waits, the bare prompt and folder when idle.
  it.each([
    ['⠹ please run the tests | project', 'working'],
    ['[ ! ] Action Required | please run the tests | project', 'permission'],
    ['[ . ] Action Required | please run the tests | project', 'permission'],
    ['please run the tests | project', 'idle'],
    ['project', 'idle'],
    ['build-host', 'idle'],
    ['[ ! ] Action Requiredness', 'idle'],
    ['', null],
    ['x'.repeat(1001), null],
  ])('reads the title %j as %s', (title, reading) => {
    expect(codexTitle(title)).toBe(reading);
  });

  const CODEX = { tells: 'permission', asking: 'codex asks for your approval' } as const;

  it('a title asking for approval is permission; once it no longer asks, working or waiting', () => {
    const working: AttentionState = { attention: 'working', since: 1, message: null, conversation: thread };
    const asked = titleStep(working, 'permission', 5_000, CODEX);
    expect(asked).toMatchObject({ attention: 'permission', since: 5_000, message: 'codex asks for your approval', conversation: thread, fromTitle: true });
    expect(titleStep(asked!, 'permission', 6_000, CODEX)).toBeNull();
    const after = titleStep(asked!, 'working', 7_000, CODEX);
    expect(after).toEqual({ attention: 'working', since: 7_000, message: null, conversation: thread, fromTitle: true });
    // Refused: the spinner for a moment, then the idle title, and no notify: still the title's to end.
    expect(titleStep(after!, 'idle', 8_000, CODEX)).toEqual({ attention: 'waiting', since: 8_000, message: null, conversation: thread });
    // A refused approval ends the turn with no notify: the idle title is all that says so.
    expect(titleStep(asked!, 'idle', 7_000, CODEX)).toMatchObject({ attention: 'waiting', since: 7_000 });
    // Before any signal (the first turn's approval) too.
    expect(titleStep(NO_ATTENTION, 'permission', 1, CODEX)).toMatchObject({ attention: 'permission' });
  });

  it('the title changes nothing it did not raise, and nothing when it says nothing', () => {
    const waiting: AttentionState = { attention: 'waiting', since: 1, message: null, conversation: thread };
    expect(titleStep(waiting, 'idle', 2, CODEX)).toBeNull();
    expect(titleStep(waiting, 'working', 2, CODEX)).toBeNull();
    const hooked: AttentionState = { attention: 'permission', since: 1, message: 'from a hook', conversation: thread };
    expect(titleStep(hooked, 'idle', 2, CODEX)).toBeNull();
    expect(titleStep({ ...hooked, fromTitle: true }, null, 2, CODEX)).toBeNull();
  });
});

describe('gemini', () => {
  const GEMINI = { tells: 'all', asking: 'gemini asks for your approval' } as const;
  // As measured on 0.61.0 (clients/README.md): 80 columns, padded.
  const pad = (t: string) => t.padEnd(80, ' ');
  it.each([
    [pad('◇  Ready (project)'), 'idle'],
    [pad('✦  Working… (project)'), 'working'],
    [pad('✦  Reading the tests (project)'), 'working'],
    [pad('⏲  Working… (project)'), 'working'],
    [pad('✋  Action Required (project)'), 'permission'],
    [pad('Gemini CLI (project)'), null],
    ['build-host', null],
    ['', null],
  ])('reads the title %j as %s', (title, reading) => {
    expect(geminiTitle(title)).toBe(reading);
  });

  it('its title is its whole attention: ready waits, working works, action required asks', () => {
    const start = titleStep(NO_ATTENTION, 'idle', 1, GEMINI);
    expect(start).toMatchObject({ attention: 'waiting', since: 1 });
    const working = titleStep(start!, 'working', 2, GEMINI);
    expect(working).toMatchObject({ attention: 'working', since: 2, message: null });
    expect(titleStep(working!, 'working', 3, GEMINI)).toBeNull();
    expect(titleStep(working!, 'permission', 4, GEMINI)).toMatchObject({ attention: 'permission', message: 'gemini asks for your approval' });
    expect(titleStep(working!, 'idle', 5, GEMINI)).toMatchObject({ attention: 'waiting', since: 5 });
    expect(titleStep(working!, null, 5, GEMINI)).toBeNull();
  });
});
