import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventsPath } from '../../../src/capture/index.js';
import { AttentionBoard } from '../../../src/fleet/attention/attention.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { tempDir } from '../../harness/fixtures.js';

const SESSION = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';

function claudeTask(dir: string): Task {
  const captureFile = join(dir, 'task-1-0.json');
  writeFileSync(captureFile, JSON.stringify({ session_id: SESSION, hook_event_name: 'SessionStart', source: 'startup' }));
  return {
    id: 1, run: 0, cwd: dir, command: 'claude', name: null, group: null, tagged: false, harness: 'claude', pinnedId: SESSION,
    targetId: null, captureFile, home: join(dir, 'home'), spawnedAt: 0, windowId: '@1', paneId: '%1',
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: 0, captured: null,
  };
}

const hook = (event: string) => `${JSON.stringify({ session_id: SESSION, hook_event_name: event, ...(event === 'SessionStart' ? { source: 'startup' } : {}) })}\n`;

describe('the attention board reading a batch of hook events', () => {
  function board() {
    let now = 1_000;
    const logs: string[] = [];
    const attention = new AttentionBoard({ now: () => now, log: (line) => logs.push(line) });
    return { attention, logs, tick: (ms: number) => (now += ms) };
  }

  it('tells a turn whose prompt and reply came in one batch: a wait that ended a turn, notified, its since moved', () => {
    const dir = tempDir();
    const task = claudeTask(dir);
    const { attention, tick } = board();
    writeFileSync(eventsPath(task.captureFile!), hook('SessionStart'));
    expect(attention.refresh(task)).toMatchObject({ from: null, state: { attention: 'waiting', since: 1_000 }, notify: false });
    tick(5_000);
    appendFileSync(eventsPath(task.captureFile!), hook('UserPromptSubmit') + hook('Stop'));
    expect(attention.refresh(task)).toMatchObject({ state: { attention: 'waiting', since: 6_000 }, notify: true });
  });

  it('tells nothing for a batch that changes nothing (a repeated Stop)', () => {
    const dir = tempDir();
    const task = claudeTask(dir);
    const { attention } = board();
    writeFileSync(eventsPath(task.captureFile!), hook('SessionStart') + hook('UserPromptSubmit') + hook('Stop'));
    expect(attention.refresh(task)).toMatchObject({ state: { attention: 'waiting' }, notify: true });
    appendFileSync(eventsPath(task.captureFile!), hook('Stop'));
    expect(attention.refresh(task)).toBeNull();
  });

  it('tells a prompt that is still being worked on as working, from waiting', () => {
    const dir = tempDir();
    const task = claudeTask(dir);
    const { attention } = board();
    writeFileSync(eventsPath(task.captureFile!), hook('SessionStart'));
    attention.refresh(task);
    appendFileSync(eventsPath(task.captureFile!), hook('UserPromptSubmit'));
    expect(attention.refresh(task)).toMatchObject({ from: 'waiting', state: { attention: 'working' }, notify: false });
  });
});
