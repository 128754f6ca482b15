import { describe, expect, it } from 'vitest';
import { rebindAdopted } from '../../../src/fleet/adoption/adopted-ids.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { C, CHILD, G, measured, P, rollout } from '../../harness/codex-threads.js';
import { ID, tempDir } from '../../harness/fixtures.js';

// A task adopted from an older fleet whose record binds it to a codex subagent thread.

function task(fields: Partial<Task>): Task {
  return {
    id: 4, run: 1, cwd: '/w', command: `codex resume '${C}'`, name: null, group: null, tagged: false, harness: 'codex', pinnedId: C,
    targetId: C, captureFile: null, home: measured(tempDir()), spawnedAt: 0, windowId: '@1', paneId: '%1', exitHint: null,
    exitStatus: null, killed: false, endedAt: null, everHeld: [C], env: {}, lastOutputAt: 0, captured: null, ...fields,
  };
}

describe('adopting a task bound to a subagent thread', () => {
  it('points its command and ids at the user thread at the root, and says so', () => {
    const t = task({ command: `codex resume ${G}`, pinnedId: G, targetId: G });
    expect(rebindAdopted(t)).toBe(`task 4: its record's codex resume ${G} names a subagent thread of ${P} (through ${C}); a save or rerun resumes with codex resume '${P}'`);
    expect(t).toMatchObject({ command: `codex resume '${P}'`, pinnedId: P, targetId: P });
  });

  it('makes it a bare codex when the root cannot be resumed', () => {
    const home = tempDir();
    rollout(home, C, CHILD);
    const t = task({ home });
    expect(rebindAdopted(t)).toContain('a save or rerun resumes with codex');
    expect(t).toMatchObject({ command: 'codex', pinnedId: null, targetId: null });
  });

  it.each([
    ['a user thread', { command: `codex resume '${P}'`, pinnedId: P, targetId: P }],
    ['a bare codex', { command: 'codex', pinnedId: null, targetId: null }],
    ['a claude', { command: `claude --resume '${ID}'`, harness: 'claude' as const, pinnedId: ID, targetId: ID }],
    ['a task with no command', { command: null }],
  ])('leaves %s alone', (_label, fields) => {
    const t = task(fields);
    const before = { ...t };
    expect(rebindAdopted(t)).toBeNull();
    expect(t).toEqual(before);
  });
});
