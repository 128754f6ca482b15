// The dashboard end to end: `fleetcom up` (not headless) in a private tmux pane, driven with
// send-keys and read with capture-pane, the way a user sees it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handSession, startDirectly } from '../helpers/by-hand.js';
import { startFleet } from '../helpers/fleet.js';
import { pressKeys, typeLine } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { activeWindow, waitForScreen } from '../helpers/dashboard-screen.js';
import { waitFor } from '../helpers/wait-for.js';

describe('the dashboard in a real tmux pane', () => {
  it('shows rows and glyph changes, switches windows, reruns, starts a command, saves, loads and quits', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb, { headless: false });
    const dash = fleet.supervisorPane;
    const dashWindow = (await sb.tmux('display-message', '-p', '-t', dash, '#{window_id}')).trim();
    await waitForScreen(sb, dash, /^fleetcom {3}0 running · 0 idle · 0 done {2,}by state · \? help$/m, 'the header');

    // A resize redraws at the new width (the header's right side ends at the last column).
    await sb.tmux('resize-window', '-t', dashWindow, '-x', '100', '-y', '30');
    await waitForScreen(sb, dash, /^fleetcom {3}0 running · 0 idle · 0 done {45}by state · \? help$/m, 'the header 100 columns wide');

    // Rows: one task that waits for a line, one that finishes soon. Its pause lets tmux read the
    // line before the exit (tmux drops output it had not read when the process ends).
    const waiter = await fleet.run('echo alpha-line; read answer; exit 3');
    const quick = await fleet.run('echo beta-done; sleep 1');
    await waitForScreen(sb, dash, /^› [✻∙] {2}echo alpha-line; read.*alpha-line +\d+s$/m, 'the running task with its output');
    await waitForScreen(sb, dash, /^ {2}✓ {2}echo beta-done; sleep 1 +beta-done +\d+s$/m, 'the finished task with its last line');
    // A loaded machine may take the 10 s that make the waiting task idle.
    await waitForScreen(sb, dash, /^fleetcom {3}(1 running · 0 idle|0 running · 1 idle) · 1 done/m, 'the counts');

    // The glyph changes when the task exits non-zero.
    const waiterTask = await fleet.task(waiter);
    await typeLine(sb, waiterTask.paneId, 'bye');
    await waitForScreen(sb, dash, /^› ✗ {2}echo alpha-line; read/m, 'the ✗ of an exit with status 3');
    await waitForScreen(sb, dash, /^fleetcom {3}0 running · 0 idle · 2 done/m, 'the counts after the exit');

    // Enter switches tmux to the selected task's window; q goes back.
    await pressKeys(sb, dash, 'Down');
    await waitForScreen(sb, dash, /^› ✓ {2}echo beta-done; sleep 1/m, 'the selection on the second row');
    const quickTask = await fleet.task(quick);
    await pressKeys(sb, dash, 'Enter');
    await waitFor(async () => (await activeWindow(sb, fleet.session)) === quickTask.windowId, { what: "the task's window to be active" });
    await pressKeys(sb, dash, 'q');
    await waitFor(async () => (await activeWindow(sb, fleet.session)) === dashWindow, { what: 'the dashboard window to be active again' });

    // r reruns the selected (finished) task.
    await pressKeys(sb, dash, 'r');
    await fleet.waitTask(quick, (t) => t.run === 1, 'rerun once');
    await waitForScreen(sb, dash, new RegExp(`task ${quick} (rerun|exited with status 0)`), 'the rerun or its end in the status line');
    // Its end (a second later) is logged in the status line: waited for here, so that on a
    // loaded machine it cannot replace the save's message below.
    await fleet.waitTask(quick, (t) => t.run === 1 && t.state === 'exited', 'the rerun to end');

    // n starts a command in the fleet's directory, typed into a prompt that starts empty.
    await pressKeys(sb, dash, 'n');
    await waitForScreen(sb, dash, /^New command: █/m, 'the empty prompt');
    // `sleep 1`: tmux drops what a process printed just before it exits (the pane would show no
    // last line), so the command stays a moment after its output.
    await typeLine(sb, dash, 'echo gamma-from-n; sleep 1');
    await waitForScreen(sb, dash, /^ {2}✓ {2}echo gamma-from-n; sleep 1 +gamma-from-n/m, 'the new task');
    expect((await fleet.ls()).find((t) => t.command === 'echo gamma-from-n; sleep 1')?.cwd).toBe(sb.dir);

    // w saves the fleet under a name, through the same store as `fleetcom save`.
    await pressKeys(sb, dash, 'w');
    await waitForScreen(sb, dash, /^Save the fleet as: █/m, 'the save prompt');
    await typeLine(sb, dash, 'dash-save');
    const file = join(sb.env.FLEETCOM_CONFIG_DIR ?? '', 'sessions', 'dash-save.json');
    await waitFor(() => existsSync(file), { what: `${file} to be written` });
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { name: string; dirs: Record<string, unknown[]> };
    expect(saved.name).toBe('dash-save');
    expect(Object.values(saved.dirs).flat()).toEqual(['echo alpha-line; read answer; exit 3', 'echo beta-done; sleep 1', 'echo gamma-from-n; sleep 1']);
    await waitForScreen(sb, dash, /saved 'dash-save': 3 command\(s\)/, 'the save in the status line');

    // o lists saved sessions (then recovery snapshots); Enter loads the chosen one.
    await pressKeys(sb, dash, 'o');
    await waitForScreen(sb, dash, /^› dash-save {3}3 task\(s\) · saved \d+s ago/m, 'the saved session first in the chooser');
    await pressKeys(sb, dash, 'Enter');
    await waitForScreen(sb, dash, /^fleetcom {3}\d+ running · 0 idle · \d+ done/m, 'the list again');
    await waitFor(async () => (await fleet.ls()).length === 6, { what: 'the loaded tasks' });

    // a lists the panes running agents started by hand; Enter adopts the chosen one.
    const hand = await startDirectly(sb, await handSession(sb, 'work', sb.dir), sb.dir, ['claude', '--model', 'opus']);
    await waitFor(async () => (await sb.agentStarts()).length > 0, { what: 'claude started by hand' });
    await pressKeys(sb, dash, 'a');
    await waitForScreen(sb, dash, new RegExp(`^› \\${hand.paneId} work:${hand.windowId} {2}claude \\d+ {2}`, 'm'), 'the agent pane in the chooser');
    await pressKeys(sb, dash, 'Enter');
    await waitForScreen(sb, dash, new RegExp(`adopted pane \\${hand.paneId} as task 7`), 'the adoption in the status line');
    expect((await fleet.task(7)).harness).toBe('claude');

    // Q asks, then y takes the fleet down like `fleetcom down`.
    await pressKeys(sb, dash, 'Q');
    await waitForScreen(sb, dash, /^Quit: stop every task and close the fleet\? \(y\/n\)/m, 'the confirmation');
    await pressKeys(sb, dash, 'y');
    await waitFor(async () => (await fleet.cli('ls')).exitCode === 3, { what: 'the fleet to be down' });
    const windows = await sb.tmux('list-windows', '-t', fleet.session, '-F', '#{window_id}');
    expect(windows.trim()).toBe(dashWindow);
  });
});
