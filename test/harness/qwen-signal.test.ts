// qwen's attention and turns from its hooks, replayed from what the real qwen-code 0.24.4 sent
// (test/fixtures/qwen-hooks/): each prompt a turn, a tool's continuation not, a question with
// its text, a cancelled or refused turn ended by qwen's return to its prompt, `/clear` a new
// conversation — step by step, and all in one read.
import { appendFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AttentionBoard } from '../../src/fleet/attention/attention.js';
import type { Task } from '../../src/fleet/supervisor/task.js';
import { QWEN_HOOK_EVENTS } from '../../src/harness/qwen/hooks.js';
import { qwenSignal, qwenTurnOf } from '../../src/harness/qwen/signal.js';
import { tempDir } from './fixtures.js';

const FIXTURE = new URL('../fixtures/qwen-hooks/0.24.4.jsonl', import.meta.url);
const PIN = 'fe69ab99-85a3-4e61-b7af-81793d416506';
const CLEARED = 'b7451f9d-9fc6-4e54-a707-c03ef2bec0fe';

/** The payloads of the hooks fleetcom's overlay registers, in order. */
function recorded(): string[] {
  return readFileSync(FIXTURE, 'utf8').split('\n').filter((line) => {
    if (line.trim() === '') return false;
    return (QWEN_HOOK_EVENTS as readonly string[]).includes(String(JSON.parse(line).hook_event_name));
  });
}

function qwenTask(): { task: Task; events: string } {
  const dir = tempDir();
  const captureFile = path.join(dir, 'task-1-0.json');
  const task = { id: 1, run: 0, harness: 'qwen', captureFile, home: dir, cwd: dir, endedAt: null, pinnedId: PIN, targetId: null, command: 'qwen', name: null } as unknown as Task;
  return { task, events: path.join(dir, 'task-1-0.events') };
}

describe("qwen's hooks as fleetcom reads them (0.24.4)", () => {
  it('says working, permission, a question with its text, waiting, as each payload came', () => {
    const { task, events } = qwenTask();
    const board = new AttentionBoard({ now: () => 1, log: () => undefined });
    const seen: string[] = [];
    for (const line of recorded()) {
      appendFileSync(events, `${line}\n`);
      board.refresh(task);
      const state = board.of(task);
      const shown = `${state.attention}${state.question ? ` question: ${state.message}` : ''} turn ${board.turnNow(task)}`;
      if (seen.at(-1) !== shown) seen.push(shown);
    }
    expect(seen).toEqual([
      'waiting turn 0',
      'working turn 1', 'waiting turn 1',
      'working turn 2', 'permission turn 2', 'working turn 2', 'waiting turn 2',
      'working turn 3', 'waiting question: Deploy to prod now? turn 3', 'working turn 3', 'waiting turn 3',
      'working turn 4', 'waiting turn 4',
      'working turn 5', 'waiting turn 5',
      'null turn 5', 'waiting turn 5',
      'working turn 6', 'permission turn 6', 'waiting turn 6',
    ]);
    expect(board.of(task).conversation).toBe(CLEARED);
  });

  it('counts six turns with their replies also when every payload comes in one read', () => {
    const { task, events } = qwenTask();
    const board = new AttentionBoard({ now: () => 1, log: () => undefined });
    appendFileSync(events, `${recorded().join('\n')}\n`);
    const change = board.refresh(task);
    const turns = board.turnsOf(task)!;
    expect(turns.ended).toBe(6);
    expect(turns.open).toBeNull();
    expect([1, 2, 3, 4, 5, 6].map((n) => [turns.turn(n)?.prompt, turns.turn(n)?.reply])).toEqual([
      ['plain one', 'fleetcom-mock-reply 1'],
      ['fleetcom-mock-tool-call please', 'fleetcom-mock-reply 2'],
      ['fleetcom-mock-question now', 'fleetcom-mock-reply 3'],
      // The steered message's reply ends the turn it was steered into.
      ['fleetcom-mock-hold first', 'fleetcom-mock-reply 5'],
      ['fleetcom-mock-hold cancel me', null],
      ['fleetcom-mock-tool-call refuse this', null],
    ]);
    expect(change?.transitions.filter((t) => t.attention === 'working').map((t) => t.turn)).toEqual([1, 2, 2, 3, 3, 4, 5, 6]);
    expect(change?.notify).toBe(true);
  });

  it('reads a continuation as the turn under way and idle_prompt as an end without a reply', () => {
    const base = { session_id: PIN, prompt_id: `${PIN}########1` };
    expect(qwenTurnOf({ ...base, hook_event_name: 'UserPromptSubmit', prompt: '' })).toEqual({ kind: 'start', sessionId: PIN, prompt: null, id: base.prompt_id });
    expect(qwenTurnOf({ ...base, hook_event_name: 'Notification', notification_type: 'idle_prompt' })).toEqual({ kind: 'end', sessionId: PIN, reply: null, id: base.prompt_id });
    expect(qwenTurnOf({ session_id: PIN, hook_event_name: 'Notification', notification_type: 'idle_prompt' })).toEqual({ kind: 'end', sessionId: PIN, reply: null });
    expect(qwenTurnOf({ ...base, hook_event_name: 'Notification', notification_type: 'permission_prompt' })).toBeNull();
  });

  it('ignores the permission request of a tool (its Notification says it), and a bad id', () => {
    expect(qwenSignal({ session_id: PIN, hook_event_name: 'PermissionRequest', tool_name: 'run_shell_command', tool_input: {} })).toMatchObject({ kind: 'ignored' });
    expect(qwenSignal({ session_id: 'x', hook_event_name: 'PermissionRequest', tool_name: 'ask_user_question', tool_input: {} })).toMatchObject({ kind: 'ignored' });
    expect(qwenSignal({ session_id: PIN, hook_event_name: 'PermissionRequest', tool_name: 'ask_user_question', tool_input: 'junk' })).toMatchObject({
      kind: 'signal', signal: { attention: 'waiting', question: true, message: 'qwen has a question for you' },
    });
  });
});
