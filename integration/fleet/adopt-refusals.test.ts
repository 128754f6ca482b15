// What `fleetcom adopt` never adopts, each listed with its reason: a pane of another user, a
// process whose traces cannot be read, a conversation already a task of this fleet, an agent
// of another tmux server — and pane ids named from a shell on another tmux server.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentPaneView } from '../../src/control/protocol.js';
import { handSession, startDirectly } from '../helpers/by-hand.js';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

describe('fleetcom adopt refuses', () => {
  it('another user\'s agent, unreadable traces, a conversation already in the fleet, another tmux server', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'proj');
    const work = await handSession(sb, 'work', dir);

    // A conversation of the fleet: task 1 talked in it; then someone resumes it by hand elsewhere.
    const run = await fleet.cli('run', '--cwd', dir, '--', 'claude');
    const task = await fleet.task(run.stdout.trim());
    await waitForText(sb, task.paneId, '? for shortcuts');
    await typeLine(sb, task.paneId, 'hello from the task');
    const held = (await fleet.waitTask(task.id, (t) => t.idSource === 'capture', 'captured')).conversationId!;
    const twice = await startDirectly(sb, work, dir, ['claude', '--resume', held]);
    // Another user's agent (argv[0] claude), as root can start one.
    const other = await startDirectly(sb, work, dir, ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', 'bash', '-c', 'exec -a claude sleep 600']);
    // A claude whose registry record is torn (the pane's own process: tmux execs several words).
    const torn = await startDirectly(sb, work, dir, ['claude', '--model', 'opus']);
    // An agent whose environment says it belongs to a pane of another tmux server.
    const nested = await startDirectly(sb, work, dir, ['env', `TMUX=${join(sb.dir, 'other.sock')},1,0`, 'TMUX_PANE=%9', 'claude']);
    for (const p of [twice, torn, nested]) await waitForText(sb, p.paneId, '? for shortcuts');
    const record = join(sb.env.CLAUDE_CONFIG_DIR!, 'sessions', `${torn.panePid}.json`);
    await waitFor(() => existsSync(record), { what: 'the registry record' });
    await writeFile(record, '{"pid":');

    const listed = await fleet.cli('adopt', '--json');
    expect(listed.exitCode, listed.stderr).toBe(0);
    const panes = new Map((JSON.parse(listed.stdout) as { panes: AgentPaneView[] }).panes.map((p) => [p.paneId, p]));
    const why = (pane: { paneId: string }) => panes.get(pane.paneId);
    expect(why(twice)).toMatchObject({ adoptable: false, why: `its conversation ${held} is already task ${task.id} of this fleet` });
    expect(why(other)).toMatchObject({ adoptable: false, agent: 'claude', why: expect.stringMatching(/runs as user 65534, not as you/) });
    expect(why(torn)).toMatchObject({ adoptable: false, why: expect.stringMatching(/its traces cannot be read: its registry record .* not JSON/) });
    expect(why(nested)).toMatchObject({ adoptable: false, why: expect.stringMatching(/runs in pane %9 of another tmux server/) });
    expect(panes.has(task.paneId)).toBe(false);

    // Named or --all, none is adopted; naming one fails the command and says why.
    const named = await fleet.cli('adopt', other.paneId);
    expect(named.exitCode).toBe(1);
    expect(named.stderr).toMatch(new RegExp(`not adopted: pane \\${other.paneId}: its claude \\(pid \\d+\\) runs as user 65534`));
    const all = await fleet.cli('adopt', '--all');
    expect(all.exitCode).toBe(0);
    expect(all.stdout).toBe('');
    expect(all.stderr.split('\n').filter((l) => l.startsWith('not adopted:'))).toHaveLength(4);
    expect((await fleet.ls()).map((t) => t.id)).toEqual([task.id]);

    // A shell on another tmux server: its pane ids name other panes; the listing says whose.
    const elsewhere = { ...sb.env, TMUX: `${join(sb.dir, 'other.sock')},1,0`, TMUX_PANE: '%0' };
    const fromThere = await fleet.cliIn(dir, elsewhere, 'adopt', twice.paneId);
    expect(fromThere.exitCode).toBe(1);
    expect(fromThere.stderr).toContain(`this shell is on tmux server ${join(sb.dir, 'other.sock')}, the fleet on ${sb.socket}`);
    const listedThere = await fleet.cliIn(dir, elsewhere, 'adopt');
    expect(listedThere.stderr).toContain(`these are the panes of the fleet's tmux server (${sb.socket})`);
    // Typos adopt nothing.
    expect((await fleet.cli('adopt', '%999')).stderr).toMatch(/%999: no pane of the fleet's tmux server there runs an agent/);
    expect((await fleet.cli('adopt', task.paneId)).stderr).toContain(`already task ${task.id} of this fleet`);
    expect((await fleet.cli('adopt', 'claude')).exitCode).toBe(2);
    expect((await fleet.cli('adopt', '--all', twice.paneId)).exitCode).toBe(2);
  });
});
