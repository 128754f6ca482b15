// The dashboard at a phone's size, 40×20 in a real tmux pane: one line per task, the task that
// needs you first with what it asks, and the same keys as the wide list.
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { pressKeys, typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { activeWindow, waitForScreen } from '../helpers/dashboard-screen.js';
import { waitFor } from '../helpers/wait-for.js';

describe('the dashboard at 40×20', () => {
  it('shows a task a line, the question first, and goes to it with Enter and with N', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb, { headless: false });
    const dash = fleet.supervisorPane;
    const dashWindow = (await sb.tmux('display-message', '-p', '-t', dash, '#{window_id}')).trim();
    await sb.tmux('resize-window', '-t', dashWindow, '-x', '40', '-y', '20');
    await waitForScreen(sb, dash, /^fleetcom 0 tasks · \?\s*$/m, 'the narrow header');

    const sleeper = await fleet.run('sleep', '600');
    const claudeId = await fleet.run('claude');
    const claude = await fleet.waitTask(claudeId, (t) => t.attention === 'waiting', 'claude at its prompt');
    await waitForText(sb, claude.paneId, '? for shortcuts');
    await typeLine(sb, claude.paneId, 'please fake-question');
    await fleet.waitTask(claudeId, (t) => t.attention === 'waiting' && t.state !== 'exited', 'the question');
    const text = await waitForScreen(sb, dash, /^fleetcom 1 need you · 2 tasks · \?\s*$/m, 'the count of tasks needing you');
    const lines = text.split('\n');
    // No section titles: the header, then the question's task, then the sleeper; 40 columns each.
    expect(lines[1]).toMatch(/^.❯ claude +Deploy to prod now\? +\d+s$/);
    expect(lines[2]).toMatch(/^.[✻∙] sleep 600 +\d+[sm]$/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(40);

    // The same keys: Down, Enter goes to the sleeper's window; N from there to the question.
    await pressKeys(sb, dash, 'Down');
    await waitForScreen(sb, dash, /^›[✻∙] sleep 600/m, 'the sleeper selected');
    await pressKeys(sb, dash, 'Enter');
    const sleeperTask = await fleet.task(sleeper);
    await waitFor(async () => (await activeWindow(sb, fleet.session)) === sleeperTask.windowId, { what: "the sleeper's window" });
    await sb.tmux('select-window', '-t', dashWindow);
    await pressKeys(sb, dash, 'N');
    await waitFor(async () => (await activeWindow(sb, fleet.session)) === claude.windowId, { what: "N: the question's window" });
  });
});
