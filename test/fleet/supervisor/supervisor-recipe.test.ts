import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SupervisorDeps } from '../../../src/fleet/supervisor/fleet-state.js';
import { Supervisor } from '../../../src/fleet/supervisor/supervisor.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { tempDir, v7, write } from '../../harness/fixtures.js';

// Supervisor.recipe() is what `save` and the recovery snapshots store: every task, agents as
// their resume commands by precedence 1-4. These tests drive it with tasks set directly and
// codex rollouts written to a temp codex home; nothing touches tmux.

const SPAWN = Date.UTC(2026, 10, 29, 19, 30, 0);
const NOW = SPAWN + 120_000;

function supervisor(): Supervisor {
  const unused = () => {
    throw new Error('not used by recipe()');
  };
  const deps = {
    tmux: new Proxy({}, { get: () => unused }),
    statePath: '/nonexistent/state.json',
    controlSocket: '/nonexistent/sock',
    paneDiedHook: '',
    tmuxSession: { id: '$0', name: 'fleet' },
    installNamespace: unused,
    capturePath: unused,
    now: () => NOW,
    newId: unused,
    log: () => undefined,
    onChange: () => undefined,
  } as unknown as SupervisorDeps;
  return new Supervisor(deps);
}

function task(id: number, fields: Partial<Task>): Task {
  return {
    id, run: 0, cwd: '/w', command: 'codex', name: null, group: null, tagged: false, harness: 'codex', pinnedId: null,
    targetId: null, captureFile: null, home: '/nonexistent', spawnedAt: SPAWN, windowId: `@${id}`, paneId: `%${id}`,
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: SPAWN, captured: null,
    ...fields,
  };
}

/** A codex rollout for `cwd` under `home`, named like the real ones. */
function rollout(home: string, id: string, cwd: string): void {
  const file = path.join(home, 'sessions', '2026', '11', '29', `rollout-2026-11-29T19-30-05-${id}.jsonl`);
  write(file, `${JSON.stringify({ type: 'session_meta', payload: { id, cwd, thread_source: 'user' } })}\n`);
}

async function withTasks(...tasks: Task[]): Promise<Supervisor> {
  const s = supervisor();
  await s.adopt({ tasks, nextId: tasks.length + 1, namespaces: [] });
  return s;
}

describe('Supervisor.recipe', () => {
  it('resolves a codex with no capture by store correlation in its spawn-time home', async () => {
    const home = tempDir();
    const id = v7(SPAWN + 5_000);
    rollout(home, id, '/w');
    const s = await withTasks(task(1, { home }));
    expect(s.recipe()).toEqual([{ cwd: '/w', cmd: `codex resume '${id}'`, name: null, group: null, env: { CODEX_HOME: home } }]);
  });

  it('keeps non-agent tasks and agents without an id verbatim, with names, groups and agent homes', async () => {
    const home = tempDir();
    const s = await withTasks(
      task(1, { command: 'npm run dev', harness: null, home: null, name: 'web', group: 'ui' }),
      task(2, { command: 'codex', home }),
    );
    expect(s.recipe()).toEqual([
      { cwd: '/w', cmd: 'npm run dev', name: 'web', group: 'ui' },
      { cwd: '/w', cmd: 'codex', name: null, group: null, env: { CODEX_HOME: home } },
    ]);
  });

  it('saves two codex tasks of one directory with two rollouts as plain codex', async () => {
    const home = tempDir();
    rollout(home, v7(SPAWN + 5_000, 1), '/w');
    rollout(home, v7(SPAWN + 6_000, 2), '/w');
    const s = await withTasks(task(1, { home }), task(2, { home }));
    expect(s.recipe().map((t) => t.cmd)).toEqual(['codex', 'codex']);
  });

  it('gives a rollout matched by two tasks to neither (one of two codex in a directory talked)', async () => {
    const home = tempDir();
    rollout(home, v7(SPAWN + 5_000), '/w');
    const s = await withTasks(task(1, { home }), task(2, { home }));
    expect(s.recipe().map((t) => t.cmd)).toEqual(['codex', 'codex']);
  });

  it('excludes ids another task holds by its exit hint, so the remaining rollout is unambiguous', async () => {
    const home = tempDir();
    const held = v7(SPAWN + 5_000, 1);
    const mine = v7(SPAWN + 6_000, 2);
    rollout(home, held, '/w');
    rollout(home, mine, '/w');
    const s = await withTasks(task(1, { home, exitHint: held, endedAt: NOW }), task(2, { home }));
    expect(s.recipe().map((t) => t.cmd)).toEqual([`codex resume '${held}'`, `codex resume '${mine}'`]);
  });

  it('excludes ids any task ever held (an earlier run)', async () => {
    const home = tempDir();
    const old = v7(SPAWN + 5_000);
    rollout(home, old, '/w');
    const s = await withTasks(task(1, { home, everHeld: [old] }));
    expect(s.recipe().map((t) => t.cmd)).toEqual(['codex']);
  });

  it('does not correlate a rollout born after the run ended', async () => {
    const home = tempDir();
    rollout(home, v7(SPAWN + 50_000), '/w');
    const s = await withTasks(task(1, { home, endedAt: SPAWN + 40_000, exitStatus: 0 }));
    expect(s.recipe().map((t) => t.cmd)).toEqual(['codex']);
  });
});
