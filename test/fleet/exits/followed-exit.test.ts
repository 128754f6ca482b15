import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SupervisorDeps } from '../../../src/fleet/supervisor/fleet-state.js';
import { Supervisor } from '../../../src/fleet/supervisor/supervisor.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import type { FleetTmux, PaneInfo } from '../../../src/fleet/tmux/tmux-port.js';
import { ID, tempDir } from '../../harness/fixtures.js';
import { waitFor } from '../../helpers/wait-for.js';

// An adopted agent under a shell ended (the process watch saw it): its pane lives on, so the
// pane is read again only while tmux may not have read the agent's last output (its hint), a
// few times — an agent that printed no hint must not wait through ten reads.

const NOW = Date.UTC(2026, 11, 2, 0, 0, 0);
const HINT = `Resume this session with:\nclaude --resume ${ID}\n`;
const SHELL: PaneInfo = {
  paneId: '%1', windowId: '@1', dead: false, exited: false, deadStatus: null, deadSignal: null, pid: 10, activity: NOW,
  task: '1', run: '0', socket: null, windowName: 'claude', tty: '/dev/pts/9',
};

/**
 * One adopted claude under pane %1's shell, running (its stat in a proc root of the test's own)
 * until a reconciliation has read the pane; then it is gone and the watch says so. `texts`:
 * the pane's text at each read after that.
 */
async function followedEnding(texts: string[]) {
  const proc = tempDir();
  mkdirSync(join(proc, '4242'));
  writeFileSync(join(proc, '4242', 'stat'), `4242 (claude) S 10 4242 10 0 -1 0 ${'0 '.repeat(12)}9001 0 0\n`);
  let reads = 0;
  const tmux: Partial<FleetTmux> = {
    listPanes: async () => [SHELL],
    endedPane: async () => ({ pane: SHELL, text: texts[Math.min(reads++, texts.length - 1)] ?? '' }),
    retainedText: async () => '',
    renameWindow: async () => undefined,
    renameWindows: async () => undefined,
    setWindowOptions: async () => undefined,
  };
  const deps = {
    tmux, procRoot: proc, statePath: join(tempDir(), 'state.json'), tmuxSession: { id: '$0', name: 'fleet' },
    now: () => NOW, log: () => undefined, onChange: () => undefined,
  } as unknown as SupervisorDeps;
  const s = new Supervisor(deps);
  const task: Task = {
    id: 1, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, harness: 'claude', pinnedId: null,
    targetId: null, captureFile: null, home: '/nonexistent', spawnedAt: NOW - 60_000, windowId: '@1', paneId: '%1',
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: NOW, captured: null,
    followed: { pid: 4242, start: '9001', hintsBefore: {}, capped: false }, tracedId: ID,
  };
  await s.adopt({ tasks: [task], nextId: 2, namespaces: [] });
  await s.tick();
  expect(task.endedAt).toBeNull();
  rmSync(join(proc, '4242'), { recursive: true });
  await s.processEnded(1, { kind: 'gone' });
  await waitFor(() => task.endedAt !== null, { what: 'the exit recorded' });
  return { task, reads: () => reads };
}

describe('an adopted agent under a shell ends', () => {
  it('is recorded with its hint once tmux has read it', async () => {
    const { task, reads } = await followedEnding(['$ ', HINT]);
    expect(task).toMatchObject({ exitHint: ID, exitStatus: null, endedAt: NOW });
    expect(reads()).toBe(2);
  });

  it('is recorded without one after three reads, not ten', async () => {
    const { task, reads } = await followedEnding(['$ ']);
    expect(task).toMatchObject({ exitHint: null, endedAt: NOW });
    expect(reads()).toBe(3);
  });
});
