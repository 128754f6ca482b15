import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SupervisorDeps } from '../../../src/fleet/supervisor/fleet-state.js';
import { Supervisor } from '../../../src/fleet/supervisor/supervisor.js';
import type { FleetTmux } from '../../../src/fleet/tmux/tmux-port.js';
import { tempDir } from '../../harness/fixtures.js';

// A reconciliation catches up with the tasks' panes: with no task there is nothing to read,
// so an empty fleet (every start without adopted tasks, an idle fleet) costs no tmux client.

describe('reconciliation', () => {
  it('reads the panes only when there are tasks', async () => {
    let listed = 0;
    const tmux = { listPanes: async () => (listed++, []), renameWindows: async () => undefined } as unknown as FleetTmux;
    const deps = {
      tmux, statePath: path.join(tempDir(), 'state.json'), controlSocket: '/nonexistent/sock', paneDiedHook: '',
      tmuxSession: { id: '$0', name: 'fleet' }, installNamespace: () => '/nonexistent', capturePath: () => '/nonexistent',
      now: () => 0, newId: () => '', log: () => undefined, onChange: () => undefined,
    } as unknown as SupervisorDeps;
    const supervisor = new Supervisor(deps);
    await supervisor.settle();
    await supervisor.tick();
    expect(listed).toBe(0);

    await supervisor.adopt({
      tasks: [{
        id: 1, run: 0, cwd: '/w', command: 'sleep 9', name: null, group: null, tagged: false, harness: null, pinnedId: null,
        targetId: null, captureFile: null, home: null, spawnedAt: 0, windowId: '@1', paneId: '%1', exitHint: null,
        exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: 0, captured: null,
      }],
      nextId: 2,
      namespaces: [],
    });
    await supervisor.tick();
    expect(listed).toBe(1);
  });
});
