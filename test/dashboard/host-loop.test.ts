// The dashboard's loop with hosts: a host that never answers holds nothing of this machine's
// rows, and a round that answers shows at the next redraw.
import { describe, expect, it } from 'vitest';
import type { LsRecord } from '../../src/control/protocol.js';
import type { HostAnswer, HostsFeed } from '../../src/dashboard/host-rows.js';
import { startDashboard, type DashboardDeps } from '../../src/dashboard/terminal.js';
import type { Task } from '../../src/fleet/supervisor/task.js';
import { waitFor } from '../helpers/wait-for.js';

const NOW = Date.parse('2026-01-01T00:01:00.000Z');

const localTask: Task = {
  id: 1, run: 0, cwd: '/w', command: 'npm run dev', name: null, group: null, tagged: false, harness: null, pinnedId: null,
  targetId: null, captureFile: null, home: null, spawnedAt: NOW, windowId: '@11', paneId: '%21',
  exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: NOW, captured: null,
};

const record = (id: number, name: string): LsRecord => ({
  id, run: 0, cwd: '/srv', command: 'claude', name, group: null, tagged: false, state: 'running', exitStatus: null, killed: false,
  harness: null, conversationId: null, idSource: null, resumeCommand: null, parkedJob: null, windowId: `@${id}`, paneId: `%${id}`,
  tmuxSocket: null, spawnedAt: '2026-01-01T00:00:00.000Z', lastOutputAt: '2026-01-01T00:00:59.000Z', attention: null, attentionSince: null,
});

function world(feed: HostsFeed) {
  let written = '';
  const noop = () => undefined;
  const deps: DashboardDeps = {
    tmux: { run: async () => '', runSequence: async () => '' },
    sessionId: '$1', pane: '%0',
    fleet: { tasks: () => [localTask], attention: () => ({ attention: null, since: null, message: null, conversation: null }), handle: async () => { throw new Error('no requests here'); } },
    quit: async () => undefined, env: {}, cwd: '/w', home: '/home/ada', sessionDir: '/nowhere', scratchDir: '/nowhere', now: () => NOW, log: noop,
    input: { setEncoding: noop, on: noop, off: noop, resume: noop, pause: noop },
    output: { columns: 60, rows: 10, write: (text: string) => void (written += text), on: noop, off: noop },
    stderr: { write: noop },
    hosts: feed,
  };
  return { deps, written: () => written };
}

const feed = (poll: () => Promise<HostAnswer[]>): HostsFeed => ({
  hosts: ['gpu', 'box'], poll, show: async () => '', capture: async () => '', rerun: async () => '',
});

describe('the dashboard with hosts', () => {
  it("draws this machine's rows while a host has not answered, the host's line saying so", async () => {
    const w = world(feed(() => new Promise(() => {})));
    const dashboard = startDashboard(w.deps);
    try {
      expect(w.written()).toContain('npm run dev');
      expect(w.written()).toContain('gpu: asking…');
      expect(w.written()).toContain('box: asking…');
    } finally {
      dashboard.close();
    }
  });

  it("shows each host's answer once it comes: its rows, or ssh's reason", async () => {
    let polls = 0;
    const w = world(feed(async () => {
      polls++;
      return [
        { host: 'gpu', tasks: [record(4, 'train')], failure: null },
        { host: 'box', tasks: null, failure: 'ssh: connect to host box port 22: Connection refused' },
      ];
    }));
    const dashboard = startDashboard(w.deps);
    try {
      await waitFor(() => w.written().includes('train') && w.written().includes('box: unreachable: ssh: connect to host box port 22'), { what: 'the hosts drawn' });
      expect(w.written()).toContain('gpu (1)');
      expect(polls).toBe(1);
    } finally {
      dashboard.close();
    }
  });
});
