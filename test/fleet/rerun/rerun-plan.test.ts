import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Launch } from '../../../src/fleet/spawn/launch.js';
import { planRerun, rerunFields } from '../../../src/fleet/rerun/rerun-plan.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { claudeProjectDirs } from '../../../src/harness/claude/claude.js';
import { C, measured, P } from '../../harness/codex-threads.js';
import { ID, OTHER, tempDir, USER_LINE, write } from '../../harness/fixtures.js';

// What a rerun runs, decided from the task's record and the claude store in a temp home: the
// conversation its last run held, or the command as written when none is provably resumable.

const NOW = Date.UTC(2026, 10, 30, 21, 0, 0);

function task(fields: Partial<Task> = {}): Task {
  return {
    id: 1, run: 2, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, harness: 'claude', pinnedId: OTHER,
    targetId: null, captureFile: null, home: tempDir(), spawnedAt: NOW - 60_000, windowId: '@1', paneId: '%1', exitHint: null,
    exitStatus: 0, killed: false, endedAt: NOW - 1_000, everHeld: [], env: {}, lastOutputAt: NOW, captured: null, ...fields,
  };
}

/** A conversation with a typed message in the task's claude home. */
function talked(t: Task, id: string): Task {
  write(join(claudeProjectDirs(t.home!, t.cwd)[0]!, `${id}.jsonl`), `${USER_LINE}\n`);
  return t;
}

const holder = (taskId: number) => ({ taskId, windowId: `@${taskId}`, paneId: `%${taskId}`, conversationId: ID });

describe('planning a rerun', () => {
  it('resumes the conversation the exit hint names, as the next run', () => {
    const rerun = planRerun(talked(task({ exitHint: ID }), ID), [], NOW);
    expect(rerun).toEqual({ run: 3, command: `claude --resume '${ID}'`, resolved: { id: ID, source: 'exit-hint' }, parked: false });
  });

  it('falls back to the pinned id when the hint names a conversation nobody talked in', () => {
    expect(planRerun(talked(task({ exitHint: ID }), OTHER), [], NOW).command).toBe(`claude --resume '${OTHER}'`);
  });

  it('starts the command as written when no id is provably resumable (never a guess)', () => {
    expect(planRerun(task({ exitHint: ID }), [], NOW)).toMatchObject({ command: 'claude', resolved: null });
    expect(planRerun(task({ command: 'npm run dev', harness: null, home: null }), [], NOW).command).toBe('npm run dev');
  });

  it('refuses to resume a conversation another task of the fleet holds, naming it', () => {
    expect(() => planRerun(talked(task({ exitHint: ID }), ID), [holder(2)], NOW)).toThrow(
      `task 1 not rerun: conversation ${ID} is open in fleetcom task 2 (window @2)`,
    );
    // Its own earlier hold is no obstacle.
    expect(planRerun(talked(task({ exitHint: ID }), ID), [holder(1)], NOW).command).toBe(`claude --resume '${ID}'`);
  });

  it("resumes the root of a codex subagent thread an older fleet's record names (9.5)", () => {
    const codex = task({ command: `codex resume '${C}'`, harness: 'codex', pinnedId: C, targetId: C, home: measured(tempDir()) });
    expect(planRerun(codex, [], NOW)).toMatchObject({ command: `codex resume '${P}'`, resolved: { id: P, source: 'pinned' } });
    // Held by another task under its root's id: refused, naming the root.
    expect(() => planRerun(codex, [{ ...holder(2), conversationId: P }], NOW)).toThrow(`conversation ${P} is open in fleetcom task 2`);
  });

  it.each([
    ['a task adopted without its command', { command: null }, 'task 1 was adopted without a record of its command; it cannot be rerun'],
    ['a running task', { endedAt: null }, 'task 1 is still running; rerun takes a finished task'],
  ])('refuses %s', (_, fields, message) => {
    expect(() => planRerun(task(fields), [], NOW)).toThrow(message);
  });

  it("keeps every id the task held among its ever-held ones, and clears the last run's outcome", () => {
    const t = task({ exitHint: ID, captured: OTHER, everHeld: [OTHER, 'older'], exitStatus: 3, killed: true });
    const launch = { command: `claude --resume '${ID}'`, harness: 'claude', pinnedId: ID, targetId: ID, captureFile: '/ns/task-1-3.json', home: t.home } as Launch;
    const fields = rerunFields(t, { run: 3, command: `claude --resume '${ID}'`, resolved: { id: ID, source: 'exit-hint' }, parked: false }, launch, NOW);
    expect(fields).toMatchObject({
      run: 3, command: `claude --resume '${ID}'`, captureFile: '/ns/task-1-3.json', targetId: ID, spawnedAt: NOW, exitHint: null,
      exitStatus: null, killed: false, endedAt: null, captured: null,
    });
    expect(fields.everHeld.sort()).toEqual([ID, OTHER, 'older'].sort());
  });
});
