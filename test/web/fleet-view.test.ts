// The page's list: the dashboard's order (needs you first: a permission, then the longest
// waiting), then running, idle, completed, then each host; a host's words without control
// characters and how to reach its task.
import { describe, expect, it } from 'vitest';
import type { LsRecord } from '../../src/control/replies.js';
import { fleetView } from '../../src/web/fleet-view.js';

const NOW = Date.parse('2026-01-01T00:10:00.000Z');
const record = (id: number, fields: Partial<LsRecord> = {}): LsRecord => ({
  id, run: 0, cwd: '/w', command: `cmd${id}`, name: null, group: null, tagged: false, state: 'running', exitStatus: null, killed: false, harness: null,
  conversationId: null, idSource: null, resumeCommand: null, parkedJob: null, windowId: `@${id}`, paneId: `%${id}`, tmuxSocket: '/tmp/tmux-1/default',
  spawnedAt: '2026-01-01T00:00:00.000Z', lastOutputAt: '2026-01-01T00:09:00.000Z', attention: null, attentionSince: null, ...fields,
});

describe('the page\'s fleet', () => {
  it('lists what needs you first, in the dashboard\'s order, then by state, then the hosts', () => {
    const local = [
      record(1),
      record(2, { harness: 'claude', attention: 'waiting', attentionSince: '2026-01-01T00:05:00.000Z' }),
      record(3, { state: 'exited', exitStatus: 0 }),
      record(4, { harness: 'codex', attention: 'permission', attentionSince: '2026-01-01T00:08:00.000Z', attentionMessage: 'codex asks for your approval' }),
      record(5, { harness: 'claude', attention: 'waiting', attentionSince: '2026-01-01T00:01:00.000Z', attentionMessage: 'Deploy to prod now?' }),
      record(6, { state: 'idle' }),
    ];
    const hosts = [
      { host: 'gpu', tasks: [record(1, { name: 'train\x1b[31m' }), record(2, { harness: 'claude', attention: 'permission', attentionSince: '2026-01-01T00:09:00.000Z' })], failure: null },
      { host: 'devbox', tasks: null, failure: 'ssh: connect to host devbox port 22: Connection refused' },
      { host: 'idle-box', tasks: null, failure: null },
    ];
    const view = fleetView(local, hosts, NOW);
    expect(view.fleet).toBe(true);
    expect(view.sections.map((s) => [s.title, s.note, s.tasks.map((t) => t.id)])).toEqual([
      ['Needs you', null, [4, 5, 2]],
      ['Running', null, [1]],
      ['Idle', null, [6]],
      ['Completed', null, [3]],
      ['gpu', null, [2, 1]],
      ['devbox', 'unreachable: ssh: connect to host devbox port 22: Connection refused', []],
      ['idle-box', 'no fleet running', []],
    ]);
    const [four, five, two] = view.sections[0]!.tasks;
    expect(four).toMatchObject({ glyph: '⚑', text: 'codex asks for your approval', keys: { approve: '\r', deny: '\x1b' }, terminal: true, reach: null });
    expect(five).toMatchObject({ glyph: '❯', text: 'Deploy to prod now?', since: Date.parse('2026-01-01T00:01:00.000Z') });
    expect(two?.text).toBe('cmd2 is waiting for you');
    const train = view.sections[4]!.tasks[1]!;
    expect(train).toMatchObject({ host: 'gpu', label: 'train', terminal: false });
    expect(train.reach).toBe("ssh -t gpu 'tmux -S /tmp/tmux-1/default attach-session -t @1'");
    expect(view.sections[1]!.tasks[0]).toMatchObject({ glyph: '✻', text: '/w', keys: null });
  });

  it('says when no fleet runs here, and still lists the hosts', () => {
    const view = fleetView(null, [{ host: 'gpu', tasks: [record(1)], failure: null }], NOW);
    expect(view.fleet).toBe(false);
    expect(view.sections.map((s) => s.title)).toEqual(['gpu']);
  });
});
