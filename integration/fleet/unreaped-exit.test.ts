// A pane whose process tmux has not reaped. tmux 3.3a misses the SIGCHLD of about half of
// claude's exits (measured on claude-code 2.1.197 and 2.1.332): the pane is dead, its
// `pane_dead_status` empty, and pane-died waits until the server reaps. That race cannot be
// forced, but the state it leaves can: a process that ignores SIGHUP and closes its pty stays
// alive and unreaped behind a dead pane for as long as the test needs.
import { describe, expect, it } from 'vitest';
import { fleetTmux } from '../../src/fleet/tmux/tmux-adapter.js';
import { isOver } from '../../src/fleet/tmux/tmux-port.js';
import { waitFor } from '../helpers/wait-for.js';
import { useSandbox } from '../helpers/sandbox.js';

const KEEP = { 'remain-on-exit': 'on' };
const UNREAPED = `printf 'claude --resume x\\n'; trap '' HUP; exec sleep 120 </dev/null >/dev/null 2>&1`;

describe('the fleet’s view of a pane tmux has not reaped', () => {
  it('reports it over with no status and no signal, beside a reaped exit and a kill', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const open = (script: string) => sb.ops.newWindow({ session, name: 't', cwd: sb.dir, argv: ['sh', '-c', script], windowOptions: KEEP });
    const unreaped = await open(UNREAPED);
    const exited = await open('exit 3');
    const killed = await open('kill -9 $$');
    const tmux = fleetTmux(sb.runner, session);
    const panes = await waitFor(
      async () => {
        const all = await tmux.listPanes();
        const mine = [unreaped, exited, killed].map((w) => all.find((p) => p.paneId === w.paneId));
        return mine.every((p) => p !== undefined && isOver(p)) ? mine : false;
      },
      { what: 'all three panes over' },
    );
    expect(panes[0]).toMatchObject({ dead: false, exited: true, deadStatus: null, deadSignal: null });
    expect(panes[1]).toMatchObject({ dead: true, deadStatus: 3, deadSignal: null });
    expect(panes[2]).toMatchObject({ dead: true, deadStatus: null, deadSignal: 9 });
    // Still unreaped after the adapter's nudge: the state the supervisor must count as an exit.
    expect((await sb.tmux('display-message', '-p', '-t', unreaped.paneId, '#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}')).trim()).toBe('1::');
  });
});
