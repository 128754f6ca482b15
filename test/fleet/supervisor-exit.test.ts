import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SupervisorDeps } from '../../src/fleet/fleet-state.js';
import { Supervisor } from '../../src/fleet/supervisor.js';
import type { Task } from '../../src/fleet/task.js';
import type { FleetTmux, PaneInfo } from '../../src/fleet/tmux-port.js';
import { ID, tempDir } from '../harness/fixtures.js';

// How the supervisor reads a pane that is over: reaped with a status, killed by a signal, or
// dead while tmux 3.3a has not reaped it (status unknown). The pane states are the ones a real
// tmux reports (integration/fleet/unreaped-exit.test.ts); nothing here runs tmux.

const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);
const HINT = `Resume this session with:\nclaude --model opus --resume ${ID}\n`;

function pane(fields: Partial<PaneInfo>): PaneInfo {
  return {
    paneId: '%1', windowId: '@1', dead: false, exited: false, deadStatus: null, deadSignal: null, pid: 10, activity: NOW,
    task: '1', run: '0', socket: null, windowName: 'claude', ...fields,
  };
}

async function supervisorWith(p: PaneInfo): Promise<{ s: Supervisor; task: Task; logs: string[] }> {
  const logs: string[] = [];
  const tmux: Partial<FleetTmux> = {
    listPanes: async () => [p],
    retainedText: async () => HINT,
    renameWindow: async () => undefined,
    setWindowOptions: async () => undefined,
    renameWindows: async () => undefined,
  };
  const deps = { tmux, statePath: join(tempDir(), 'state.json'), tmuxSession: { id: '$0', name: 'fleet' }, now: () => NOW, log: (line: string) => logs.push(line), onChange: () => undefined } as unknown as SupervisorDeps;
  const s = new Supervisor(deps);
  const task: Task = {
    id: 1, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, harness: 'claude', pinnedId: ID,
    targetId: null, captureFile: null, home: '/nonexistent', spawnedAt: NOW - 60_000, windowId: '@1', paneId: '%1',
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: NOW, captured: null,
  };
  await s.adopt({ tasks: [task], nextId: 2, namespaces: [] });
  return { s, task, logs };
}

describe('Supervisor exits', () => {
  it.each([
    ['reaped with status 0', { dead: true, exited: true, deadStatus: 0 }, 0, false, 'exited with status 0'],
    ['killed by SIGKILL', { dead: true, exited: true, deadSignal: 9 }, null, true, 'was killed by signal 9'],
    ['dead but not reaped', { exited: true }, null, false, 'exited (status unknown)'],
  ] as const)('records a pane %s, its hint scraped', async (_label, fields, status, killed, how) => {
    for (const via of ['paneDied', 'reconcile'] as const) {
      const { s, task, logs } = await supervisorWith(pane(fields));
      await (via === 'paneDied' ? s.handle({ op: 'pane-died', pane: '%1' }) : s.tick());
      expect(task, via).toMatchObject({ exitStatus: status, killed, exitHint: ID, endedAt: NOW });
      expect(logs, via).toEqual([`task 1 ${how}; exit hint ${ID}`]);
    }
  });

  it('leaves a live pane alone', async () => {
    const { s, task } = await supervisorWith(pane({}));
    await s.handle({ op: 'pane-died', pane: '%1' });
    await s.tick();
    expect(task.endedAt).toBeNull();
  });
});
