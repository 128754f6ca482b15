// Attention with turns, from a real events file: a turn whose two hooks arrive in one read is
// a turn (both transitions, the alert), where the net state alone said nothing had happened.
import { appendFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AttentionBoard } from '../../../src/fleet/attention/attention.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { tempDir } from '../../harness/fixtures.js';

const S = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';

function claudeTask(): { task: Task; events: string } {
  const dir = tempDir();
  const captureFile = path.join(dir, 'task-1-0.json');
  const task = { id: 1, run: 0, harness: 'claude', captureFile, home: dir, cwd: dir, endedAt: null, pinnedId: S, targetId: null, command: 'claude', name: null } as unknown as Task;
  return { task, events: path.join(dir, 'task-1-0.events') };
}

const hook = (event: string, more: object = {}) => `${JSON.stringify({ session_id: S, hook_event_name: event, ...more })}\n`;

describe('AttentionBoard with turns', () => {
  it('tells a turn that started and ended between two reads: both steps, its turn, the reply, an alert', () => {
    const { task, events } = claudeTask();
    let now = 1000;
    const board = new AttentionBoard({ now: () => now, log: () => undefined });
    appendFileSync(events, hook('SessionStart', { source: 'startup' }));
    const ready = board.refresh(task);
    expect(ready?.transitions.map((t) => [t.attention, t.turn])).toEqual([['waiting', 0]]);
    expect(ready?.notify).toBe(false);
    now = 2000;
    appendFileSync(events, hook('UserPromptSubmit', { prompt: 'quick' }) + hook('Stop', { last_assistant_message: 'done' }));
    const change = board.refresh(task);
    expect(change).not.toBeNull();
    expect(change?.from).toBe('waiting');
    expect(change?.state.attention).toBe('waiting');
    expect(change?.transitions.map((t) => [t.attention, t.turn])).toEqual([['working', 1], ['waiting', 1]]);
    expect(change?.notify).toBe(true);
    expect(board.turnNow(task)).toBe(1);
    expect(board.turnsOf(task)?.lastEnded()).toMatchObject({ prompt: 'quick', reply: 'done' });
  });

  it('counts no turn for another conversation (a subagent), and a replay tells nobody', () => {
    const { task, events } = claudeTask();
    const board = new AttentionBoard({ now: () => 1, log: () => undefined });
    appendFileSync(events, hook('SessionStart') + JSON.stringify({ session_id: '11111111-2222-4333-8444-555555555555', hook_event_name: 'UserPromptSubmit', prompt: 'x' }) + '\n');
    board.refresh(task);
    expect(board.turnNow(task)).toBe(0);
    appendFileSync(events, hook('UserPromptSubmit', { prompt: 'q' }) + hook('Stop'));
    const replayed = board.refresh(task, { quiet: true });
    expect(replayed?.notify).toBe(false);
    expect(board.turnNow(task)).toBe(1);
  });

  it("opens a turn for a prompt send saw in the store, which the agent's end then closes", () => {
    const { task, events } = claudeTask();
    const board = new AttentionBoard({ now: () => 1, log: () => undefined });
    appendFileSync(events, hook('SessionStart'));
    board.refresh(task);
    const seen = board.promptSeen(task, 'from the store');
    expect(seen?.transitions.map((t) => [t.attention, t.turn])).toEqual([['working', 1]]);
    expect(board.of(task).attention).toBe('working');
    expect(board.promptSeen(task, 'from the store')).toBeNull();
    appendFileSync(events, hook('Stop', { last_assistant_message: 'r' }));
    expect(board.refresh(task)?.transitions.map((t) => [t.attention, t.turn])).toEqual([['waiting', 1]]);
    expect(board.turnNow(task)).toBe(1);
  });
});
