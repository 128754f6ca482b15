import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecipeTask, ReplyTo, Request } from '../../src/control/protocol.js';
import { perform, type ActionDeps } from '../../src/dashboard/actions.js';
import { NO_ATTENTION } from '../../src/harness/index.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function depsWith(tasks: RecipeTask[]): ActionDeps {
  const dir = mkdtempSync(join(tmpdir(), 'fleetcom-actions-'));
  dirs.push(dir);
  return {
    tmux: { runSequence: () => Promise.reject(new Error('no tmux in this test')) } as unknown as ActionDeps['tmux'],
    sessionId: '$0', pane: '%0',
    // Only save is asked here; its reply is the fleet's tasks.
    fleet: { tasks: () => [], attention: () => NO_ATTENTION, handle: <R extends Request>(request: R) => Promise.resolve((request.op === 'save' ? tasks : null) as ReplyTo<R>) },
    quit: () => Promise.resolve(),
    env: {}, cwd: dir, home: dir, sessionDir: join(dir, 'sessions'), scratchDir: dir,
    now: () => 0, log: () => {},
  };
}

describe('the dashboard save (w)', () => {
  it('writes nothing for an empty fleet and says so', async () => {
    const deps = depsWith([]);
    expect(await perform({ kind: 'save', name: 'work' }, deps)).toEqual({ status: 'the fleet has no tasks; nothing saved' });
    expect(existsSync(join(deps.sessionDir, 'work.json'))).toBe(false);
  });

  it('writes a fleet with tasks', async () => {
    const deps = depsWith([{ cwd: '/tmp', cmd: 'sleep 1', name: null, group: null }]);
    const outcome = await perform({ kind: 'save', name: 'work' }, deps);
    expect(outcome).toMatchObject({ status: expect.stringContaining("saved 'work': 1 command(s)") });
    expect(existsSync(join(deps.sessionDir, 'work.json'))).toBe(true);
  });
});
