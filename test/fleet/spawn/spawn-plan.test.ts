import { describe, expect, it } from 'vitest';
import { capturePath } from '../../../src/capture/capture-names.js';
import { planSpawns } from '../../../src/fleet/spawn/spawn-plan.js';
import type { WindowSpec } from '../../../src/fleet/tmux/tmux-port.js';
import { ID, tempDir } from '../../harness/fixtures.js';

// Planning a load's tasks before tmux makes their windows: ids handed out in order to the
// specs that can start, each failure reported by its index.

const NOW = Date.UTC(2026, 10, 30, 21, 0, 0);
const NS = '/run/fleetcom/captures/4242-abcdefabcdef';

describe('planning new tasks', () => {
  it('numbers the specs that can start from the first free id, and reports the others by index', () => {
    const home = tempDir();
    const env = { SHELL: '/bin/sh', HOME: home };
    const spec = (command: string, cwd = home) => ({ command, cwd, env, name: null, group: null });
    const windows: Array<[number, string]> = [];
    const { planned, failed } = planSpawns(
      [spec('claude'), spec('true', '/nonexistent'), { ...spec('sleep 9'), name: 'web', group: 'servers' }],
      5,
      { namespace: () => NS, capturePath, globalEnv: {}, newId: () => ID },
      { now: NOW, window: (draft, launch) => (windows.push([draft.id, launch.argv.join(' ')]), { name: `w${draft.id}` } as WindowSpec) },
    );
    expect(planned.map((p) => [p.index, p.draft.id, p.window.name, p.pinned])).toEqual([[0, 5, 'w5', ID], [2, 6, 'w6', null]]);
    expect([...failed.keys()]).toEqual([1]);
    expect(failed.get(1)?.message).toContain('working directory /nonexistent does not exist');
    expect(planned[0]?.draft).toMatchObject({
      run: 0, command: 'claude', harness: 'claude', pinnedId: ID, captureFile: `${NS}/task-5-0.json`, windowId: '', paneId: '',
      spawnedAt: NOW, lastOutputAt: NOW, endedAt: null, captured: null, env,
    });
    expect(planned[1]?.draft).toMatchObject({ id: 6, name: 'web', group: 'servers', harness: null, captureFile: null });
    expect(windows).toEqual([[5, expect.stringContaining(`/bin/sh -c claude --session-id '${ID}'`)], [6, '/bin/sh -c sleep 9']]);
  });
});
