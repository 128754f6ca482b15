import { describe, expect, it } from 'vitest';
import { stopProcessGroups } from '../../../src/fleet/lifecycle/stop.js';
import type { FleetTmux, PaneInfo } from '../../../src/fleet/tmux/tmux-port.js';

function pane(paneId: string, pid: number, dead: boolean): PaneInfo {
  return { paneId, windowId: '@1', dead, exited: dead, deadStatus: null, deadSignal: null, pid, activity: 0, task: '1', run: '0', socket: null, windowName: null };
}

/**
 * tmux as the supervisor sees it: `listed` is what list-panes says — every pane alive at first,
 * then dead once a signal reached what it runs, or after `listings` listings — and `live` what
 * tmux says each pane id runs right now.
 */
function fakeTmux(listed: Record<string, number>, live: Record<string, number>, signalled: Set<number>, listings: number): FleetTmux {
  let n = 0;
  return {
    listPanes: async () => {
      n += 1;
      return Object.entries(listed).map(([id, pid]) => pane(id, pid, n > listings || signalled.has(live[id] ?? -1)));
    },
    livePanePids: async (ids) => new Map(ids.flatMap((id) => (live[id] === undefined ? [] : [[id, live[id]] as [string, number]]))),
  } as Partial<FleetTmux> as FleetTmux;
}

async function stop(listed: Record<string, number>, live: Record<string, number>, paneIds: string[], listings = Infinity): Promise<Array<[number, string]>> {
  const sent: Array<[number, string]> = [];
  const signalled = new Set<number>();
  await stopProcessGroups(fakeTmux(listed, live, signalled, listings), paneIds, (pid, sig) => {
    sent.push([pid, sig]);
    signalled.add(pid);
  });
  return sent;
}

describe('stopping tasks', () => {
  it('signals the pid tmux confirms for the pane id, and only the panes asked for', async () => {
    expect(await stop({ '%1': 101, '%2': 102 }, { '%1': 101, '%2': 102 }, ['%1'])).toEqual([[101, 'SIGTERM']]);
  });

  it('sends nothing to a listed pid the pane no longer runs (it died or respawned; the pid may be reused)', async () => {
    // The listing still shows 4242; the pane now runs 777, or is gone: 4242 must not be signalled.
    // The pane counts as ended after one listing, so each stop is one SIGTERM round.
    const respawned = await stop({ '%1': 4242 }, { '%1': 777 }, ['%1'], 1);
    const gone = await stop({ '%1': 4242 }, {}, ['%1'], 1);
    expect([...respawned, ...gone]).toEqual([]);
  });

  it('lets the event loop answer requests while it signals hundreds of panes', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `%${i}`);
    const pids = Object.fromEntries(ids.map((id, i) => [id, 1000 + i]));
    const sent = new Set<number>();
    let sentWhenAnswered: number | null = null;
    setImmediate(() => (sentWhenAnswered = sent.size)); // a request that came in as the down began
    await stopProcessGroups(fakeTmux(pids, pids, sent, Infinity), ids, (pid) => sent.add(pid));
    expect(sent.size).toBe(200);
    expect(sentWhenAnswered).toBeGreaterThan(0);
    expect(sentWhenAnswered).toBeLessThan(200);
  });
});
