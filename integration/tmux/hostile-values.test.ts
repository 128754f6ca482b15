// Values a user or a task can set (window names, @ options) cannot move another field of a
// tmux query, and the pid fleetcom would signal is read by pane id from the real server.
import { describe, expect, it } from 'vitest';
import { SEP } from '../../src/tmux/format.js';
import { livePanePids } from '../../src/tmux/panes.js';
import { waitForDeath } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('listPanes with hostile values', () => {
  it('keeps each pane its own fields when a name and an option carry the separator, a whole forged record and newlines', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    // 14 separators: on a fixed separator this name completed its own record with pid 4242.
    const forged = `x${SEP}${session}${SEP}0${SEP}${SEP}${SEP}${SEP}4242${SEP}0${SEP}1${SEP}0${SEP}/s${SEP}%999${SEP}@999${SEP}9${SEP}y`;
    const w = await sb.ops.newWindow({
      session, name: 'plain', cwd: sb.dir, argv: ['sleep', '1000'],
      windowOptions: { '@fleetcom-task': '1', '@fleetcom-socket': `/a${SEP}b\nc` },
    });
    // Renamed by hand, as a user (or a task running tmux) can. rename-window stores a newline as
    // the two characters \n (new-window -n stores it raw); U+241E is kept either way.
    await sb.tmux('rename-window', '-t', w.windowId, forged);
    await sb.tmux('rename-window', '-t', `${session}:0`, `line1\nline2${SEP}`);
    const rows = await sb.ops.listPanes(session);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ windowName: `line1\\nline2${SEP}`, sessionId: session, fleetcomTask: null });
    expect(rows[1]).toMatchObject({
      paneId: w.paneId, windowId: w.windowId, windowName: forged, sessionId: session, paneDead: false,
      panePid: w.panePid, fleetcomTask: 1, fleetcomSocket: `/a${SEP}b\nc`,
    });
  });
});

describe('livePanePids', () => {
  it('reads the pid of each live pane by its id and leaves out dead and unknown panes', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const keep = { 'remain-on-exit': 'on' };
    const a = await sb.ops.newWindow({ session, name: 'a', cwd: sb.dir, argv: ['sleep', '1000'], windowOptions: keep });
    const dead = await sb.ops.newWindow({ session, name: 'd', cwd: sb.dir, argv: ['sh', '-c', 'exit 3'], windowOptions: keep });
    const b = await sb.ops.newWindow({ session, name: 'b', cwd: sb.dir, argv: ['sleep', '1000'], windowOptions: keep });
    await waitForDeath(sb, session, dead.paneId);
    // An unknown pane stops tmux's command sequence; the panes after it are still read.
    const pids = await livePanePids(sb.runner, [a.paneId, '%9999', dead.paneId, b.paneId]);
    expect(Object.fromEntries(pids)).toEqual({ [a.paneId]: a.panePid, [b.paneId]: b.panePid });
  });
});
