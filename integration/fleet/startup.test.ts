// The supervisor's start against a real private tmux server: everything it needs read in one
// tmux call, the bindings and history limit set in one more, and the window's naming beside
// that.
import { describe, expect, it } from 'vitest';
import { readStart, setUpServer } from '../../src/fleet/lifecycle/startup.js';
import { markOption } from '../../src/fleet/lifecycle/supervisor-mark.js';
import { countingRunner as counting } from '../helpers/counting-runner.js';
import { useSandbox } from '../helpers/sandbox.js';

const KEYS = [
  ['r', (previous: string | null) => `display-message "rerun, else ${previous ?? 'nothing'}"`],
  ['N', () => 'display-message next'],
] as const;
const SOCKET = '/run/user/1000/fleetcom/default.sock';
const MARK = { socket: SOCKET, me: { pid: 4242, start: '1234', command: 'node cli.js up' } };

describe('the supervisor start', () => {
  it('reads in one call and sets up in two, keeping what the keys and the window were', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer({ name: 'fl eet' });
    const pane = (await sb.tmux('list-panes', '-t', session, '-F', '#{pane_id}')).trim();
    // A name of the user's (an automatic one follows the running process, `tmux` then `sh`).
    await sb.tmux('rename-window', '-t', pane, 'mine');
    const tmux = counting(sb.runner);
    const logged: string[] = [];

    const read = await readStart(tmux, pane, ['r', 'N'], SOCKET);
    expect(tmux.calls).toHaveLength(1);
    expect(`tmux ${read.version}`).toBe(await sb.tmux('-V'));
    expect(read.bound).toEqual(new Map([['r', 'refresh-client'], ['N', null]]));
    expect(read.session).toEqual({ id: session, name: 'fl eet' });
    expect(read.environment).toEqual(await sb.ops.showGlobalEnvironment());
    expect(read.panes.map((p) => p.paneId)).toEqual([pane]);
    expect(read.recorded).toEqual(new Map([['r', null], ['N', null]]));
    expect(read.window).toEqual({ kept: '', name: 'mine', automatic: 'off' });
    expect(read.mark).toBeNull();

    tmux.calls.length = 0;
    await setUpServer(tmux, { pane, read, keys: KEYS, mark: MARK, log: (l) => logged.push(l) });
    // The bindings and history limit in one call, the window's naming beside it.
    expect(tmux.calls).toHaveLength(2);
    expect(logged).toEqual([]);
    expect(await sb.ops.showServerOption('@fleetcom-prev-r')).toBe('refresh-client');
    expect(await sb.ops.showServerOption('@fleetcom-prev-N')).toBe('');
    expect(await sb.ops.listKey('prefix', 'r')).toBe('display-message "rerun, else refresh-client"');
    expect(await sb.ops.listKey('prefix', 'N')).toBe('display-message next');
    expect(await sb.tmux('show-options', '-v', '-t', session, 'history-limit')).toBe('10000');
    expect(await sb.tmux('display-message', '-p', '-t', pane, '#{window_name}')).toBe('fleetcom');
    expect(await sb.ops.showServerOption(markOption(SOCKET))).toBe(`4242 1234 ${SOCKET}`);

    // The next start on the server (a supervisor adopting the fleet) finds them recorded and
    // does not record fleetcom's own binding or name as the user's.
    tmux.calls.length = 0;
    const again = await readStart(tmux, pane, ['r', 'N'], SOCKET);
    expect(again.recorded).toEqual(new Map([['r', 'refresh-client'], ['N', '']]));
    expect(again.bound.get('r')).toBe('display-message "rerun, else refresh-client"');
    expect(again.mark).toBe(`4242 1234 ${SOCKET}`);
    await setUpServer(tmux, { pane, read: again, keys: KEYS, mark: MARK, log: (l) => logged.push(l) });
    expect(await sb.ops.showServerOption('@fleetcom-prev-r')).toBe('refresh-client');
    expect(JSON.parse(await sb.tmux('show-options', '-w', '-v', '-t', pane, '@fleetcom-previous-name'))).toEqual({ name: 'mine', automatic: 'off' });
  });

  it('asks by name for a key the prefix table may list under another name', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const pane = (await sb.tmux('list-panes', '-t', session, '-F', '#{pane_id}')).trim();
    await sb.ops.bindKey('prefix', 'c-x', 'display-message lower');
    await sb.ops.bindKey('prefix', '#', 'display-message hash');
    const tmux = counting(sb.runner);
    // tmux lists these as `C-x` and `\#`; `Z` (one letter, printed as it is) is simply not bound.
    const read = await readStart(tmux, pane, ['c-x', '#', 'Z', 'C-x'], SOCKET);
    expect(read.bound).toEqual(new Map([['c-x', 'display-message lower'], ['#', 'display-message hash'], ['Z', null], ['C-x', 'display-message lower']]));
    expect(tmux.calls).toEqual([expect.stringContaining('list-keys'), 'list-keys', 'list-keys']);
  });

  it('a window that cannot be named is logged; the keys are bound all the same', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const pane = (await sb.tmux('list-panes', '-t', session, '-F', '#{pane_id}')).trim();
    const read = await readStart(sb.runner, pane, ['r'], SOCKET);
    const logged: string[] = [];
    await setUpServer(sb.runner, { pane: '%999', read, keys: KEYS.slice(0, 1), mark: MARK, log: (l) => logged.push(l) });
    expect(logged).toEqual([expect.stringMatching(/^could not name this window: /)]);
    expect(await sb.ops.listKey('prefix', 'r')).toBe('display-message "rerun, else refresh-client"');
  });
});
