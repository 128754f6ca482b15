// A host's tasks in the dashboard: their rows and sections, the host lines, and what the keys do on them.
import { describe, expect, it } from 'vitest';
import type { LsRecord } from '../../src/control/protocol.js';
import { hostRows, hostStatuses, HostRowIds, type HostAnswer } from '../../src/dashboard/host-rows.js';
import { handleKey, type Key } from '../../src/dashboard/keys.js';
import { displayOrder, type Row } from '../../src/dashboard/model.js';
import { render } from '../../src/dashboard/view.js';
import { HOME, row, ui } from './rows.js';

const NOW = Date.parse('2026-01-01T00:01:00.000Z');

function record(id: number, fields: Partial<LsRecord> = {}): LsRecord {
  return {
    id, run: 0, cwd: '/srv/w', command: `cmd${id}`, name: null, group: null, tagged: false, state: 'running', exitStatus: null, killed: false,
    harness: null, conversationId: null, idSource: null, resumeCommand: null, parkedJob: null, windowId: `@${id}`, paneId: `%${id}`,
    tmuxSocket: '/tmp/tmux-0/default', spawnedAt: '2026-01-01T00:00:00.000Z', lastOutputAt: '2026-01-01T00:00:50.000Z', attention: null, attentionSince: null, ...fields,
  };
}

const answers = new Map<string, HostAnswer>([
  ['gpu', { host: 'gpu', tasks: [record(1), record(2, { command: 'claude', attention: 'waiting', attentionSince: '2026-01-01T00:00:30.000Z' })], failure: null }],
  ['box', { host: 'box', tasks: null, failure: 'ssh: connect to host box port 22: Connection refused' }],
]);
const hosts = ['gpu', 'box', 'new'];
const local: Row[] = [row(1, { command: 'npm run dev' }), row(2, { command: 'claude', attention: 'waiting', since: NOW - 5_000, line: 'claude is waiting for you' })];

describe("a host's rows", () => {
  const ids = new HostRowIds();
  const remote = hostRows(hosts, answers, NOW, ids);
  const rows = [...local, ...remote];

  it('are made from its ls records with ids of their own, stable across answers', () => {
    expect(remote.map((r) => [r.id, r.remote?.host, r.remote?.id, r.label, r.line])).toEqual([
      [-1, 'gpu', 1, 'cmd1', '/srv/w'],
      [-2, 'gpu', 2, 'claude', 'claude is waiting for you'],
    ]);
    expect(remote[1]).toMatchObject({ ageMs: 30_000, attention: 'waiting', remote: { windowId: '@2', paneId: '%2', tmuxSocket: '/tmp/tmux-0/default' } });
    expect(hostRows(hosts, answers, NOW, ids).map((r) => r.id)).toEqual([-1, -2]);
  });

  it("follow this machine's sections, one per host, with ssh's reason for a host that did not answer", () => {
    const screen = render({ rows, ui: ui(), home: HOME, width: 80, height: 14, hosts: hostStatuses(hosts, answers) });
    expect(screen.lines.map((l) => l.trimEnd()).slice(1, 10)).toEqual([
      'Needs you (1)',
      expect.stringMatching(/^› .* claude +claude is waiting for you +3s$/),
      'Running (1)',
      expect.stringMatching(/^ {2}.* npm run dev/),
      'gpu (2)',
      expect.stringMatching(/^ {2}.* claude +claude is waiting for you +30s$/),
      expect.stringMatching(/^ {2}.* cmd1 +\/srv\/w +10s$/),
      'box: unreachable: ssh: connect to host box port 22: Connection refused',
      'new: asking…',
    ]);
    expect(screen.styles[6]).toBe('waiting');
    // Only this machine's panes are read for their last line.
    expect(screen.visible).toEqual([2, 1]);
  });

  it('take Enter, Space and r to their host; the other task keys say the --host command', () => {
    const at = ui({ selected: -2 });
    const target = remote[1]!.remote;
    const press = (key: Key) => handleKey(at, key, rows, HOME);
    expect(press({ name: 'enter' }).action).toEqual({ kind: 'host-show', target });
    expect(press({ name: 'char', char: ' ' }).action).toEqual({ kind: 'host-peek', target });
    expect(press({ name: 'char', char: 'r' }).action).toEqual({ kind: 'host-rerun', target });
    const kill = press({ name: 'char', char: 'X' });
    expect(kill.action).toBeNull();
    expect(kill.ui.status).toBe('a task of gpu: fleetcom --host gpu kill 2');
  });

  it("N goes through this machine's tasks that need you, then each host's, then round again", () => {
    let state = ui({ selected: 1 });
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const result = handleKey(state, { name: 'char', char: 'N' }, rows, HOME);
      state = result.ui;
      seen.push(JSON.stringify(result.action));
    }
    expect(seen).toEqual([
      JSON.stringify({ kind: 'select-window', id: 2 }),
      JSON.stringify({ kind: 'host-show', target: remote[1]!.remote }),
      JSON.stringify({ kind: 'select-window', id: 2 }),
    ]);
    expect(displayOrder(rows, state, HOME).map((r) => r.id)).toEqual([2, 1, -2, -1]);
  });
});
