import { describe, expect, it } from 'vitest';
import type { LsRecord } from '../../src/control/protocol.js';
import type { HostLink } from '../../src/remote/host-link.js';
import { nextOnHosts, remoteOrder } from '../../src/remote/remote-next.js';
import { attachArgv, remoteTmuxLine, targetProblem, type RemoteTarget } from '../../src/remote/remote-tmux.js';
import { hostWindowOf } from '../../src/remote/remote-window.js';

const link: HostLink = { sshCommand: ['ssh', '-F', '/cfg'], remoteCommand: ['fleetcom'], runtimeDir: '/run/f', controlDir: '/run/f/ssh' };
const target: RemoteTarget = { host: 'gpu', id: 3, windowId: '@7', paneId: '%9', tmuxSocket: '/tmp/tmux-1000/default' };

describe("a host's task window", () => {
  it('attaches with the user ssh, the host master, a terminal, and the host tmux quoted for its shell', () => {
    expect(attachArgv(link, target)).toEqual([
      'ssh', '-F', '/cfg', '-o', expect.stringMatching(/^ControlPath=\/run\/f\/ssh\/[0-9a-f]+$/),
      '-o', 'ControlMaster=auto', '-o', 'ControlPersist=600', '-o', 'ServerAliveInterval=10', '-o', 'ServerAliveCountMax=3', '-t',
      '--', 'gpu', "'tmux' '-S' '/tmp/tmux-1000/default' 'attach-session' '-t' '@7'",
    ]);
    // No BatchMode: the window is where a passphrase can be typed.
    expect(attachArgv(link, target).join(' ')).not.toContain('BatchMode');
    expect(remoteTmuxLine(null, ['capture-pane', '-p', '-t', '%9'])).toBe("'tmux' 'capture-pane' '-p' '-t' '%9'");
    expect(remoteTmuxLine("/tmp/it's $(x)", ['a'])).toBe("'tmux' '-S' '/tmp/it'\\''s $(x)' 'a'");
  });

  it.each([
    [{ windowId: '@1;kill-server', paneId: '%1', tmuxSocket: null }, /window id "@1;kill-server" is not a tmux window id/],
    [{ windowId: '@1', paneId: '-t', tmuxSocket: null }, /pane id "-t" is not a tmux pane id/],
    [{ windowId: '@1', paneId: '%1', tmuxSocket: 'relative/sock' }, /tmux socket "relative\/sock" is not an absolute path/],
    [{ windowId: '@1', paneId: '%1', tmuxSocket: '/tmp/a\nb' }, /is not an absolute path/],
  ])('refuses ids from the host that are not what tmux makes: %j', (ids, reason) => {
    expect(targetProblem(ids)).toMatch(reason);
  });

  it("finds the host's attach window among the session's windows, by its mark only", () => {
    const listing = '@1 0 \n@4 0 gpu-2\n@5 1 gpu\n@6 0 gpu\n';
    expect(hostWindowOf(listing, 'gpu')).toEqual({ windowId: '@5', dead: true });
    expect(hostWindowOf(listing, 'gpu-2')).toEqual({ windowId: '@4', dead: false });
    expect(hostWindowOf(listing, 'cpu')).toBeNull();
  });
});

function record(id: number, fields: Partial<LsRecord> = {}): LsRecord {
  return {
    id, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, state: 'running', exitStatus: null, killed: false,
    harness: 'claude', conversationId: null, idSource: null, resumeCommand: null, parkedJob: null, windowId: `@${id}`, paneId: `%${id}`,
    tmuxSocket: null, spawnedAt: '2026-01-01T00:00:00.000Z', lastOutputAt: '2026-01-01T00:00:00.000Z', attention: null, attentionSince: null, ...fields,
  };
}

describe('next across hosts', () => {
  const hosts = [
    { host: 'a', tasks: [record(1, { attention: 'waiting', attentionSince: '2026-01-01T00:00:05.000Z' }), record(2), record(3, { attention: 'permission', attentionSince: '2026-01-01T00:00:09.000Z' })] },
    { host: 'b', tasks: [record(1, { attention: 'waiting', attentionSince: '2026-01-01T00:00:01.000Z' }), record(2, { attention: 'waiting', state: 'exited' })] },
  ];

  it('visits the hosts in their order, each with a permission first, then the longest waiting; never an exited task', () => {
    expect(remoteOrder(hosts).map((t) => `${t.target.host}${t.id}`)).toEqual(['a3', 'a1', 'b1']);
  });

  it('goes on after the task shown, and gives null after the last (the caller goes round to this machine)', () => {
    expect(nextOnHosts(hosts, null)).toMatchObject({ host: 'a', id: 3 });
    expect(nextOnHosts(hosts, { host: 'a', id: 3 })).toMatchObject({ host: 'a', id: 1 });
    expect(nextOnHosts(hosts, { host: 'a', id: 1 })).toMatchObject({ host: 'b', id: 1, windowId: '@1' });
    expect(nextOnHosts(hosts, { host: 'b', id: 1 })).toBeNull();
    expect(nextOnHosts([{ host: 'a', tasks: [record(1, { attention: 'waiting', windowId: 'x' })] }], null)).toBeNull();
  });
});
