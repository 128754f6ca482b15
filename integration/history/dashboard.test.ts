// `h` in the dashboard: the selected task's directory's past conversations, filtered by typing;
// Enter on one a task holds goes to that task, Enter on an ended one resumes it as a task.
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { pressKeys } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { screen, waitForScreen } from '../helpers/dashboard-screen.js';
import { exitAgent, spawnIn, startsAfter, talk } from '../sessions/kit.js';

describe('the dashboard history key', () => {
  it('lists the directory\'s conversations, filters them by typing, and resumes the chosen one', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb, { headless: false });
    const dash = fleet.supervisorPane;
    const dir = await sb.mkdir('home', 'w', 'app');
    const first = await spawnIn(fleet, dir, 'claude');
    await talk(sb, first, 'claude', 'zebra stripes question');
    const ended = await exitAgent(sb, fleet, first);
    const second = await spawnIn(fleet, dir, 'codex');
    await talk(sb, second, 'codex', 'giraffe necks question');
    const codexId = (await fleet.waitTask(second.id, (t) => t.conversationId !== null, 'codex id')).conversationId!;

    await waitForScreen(sb, dash, /codex/, 'the codex row');
    await pressKeys(sb, dash, 'h');
    await waitForScreen(sb, dash, /History of ~\/w\/app/, 'the history chooser');
    const listed = await waitForScreen(sb, dash, /zebra stripes question/, 'the claude conversation');
    expect(listed).toMatch(new RegExp(`\\[task ${second.id}\\] giraffe necks question +${codexId}`));

    // Typing filters; Enter on the ended claude conversation resumes it as a new task.
    await pressKeys(sb, dash, 'z', 'e', 'b');
    await waitFor(async () => !(await screen(sb, dash)).includes('giraffe'), { what: 'the filter to leave only zebra' });
    const before = (await sb.agentStarts()).length;
    await pressKeys(sb, dash, 'Enter');
    const [start] = await startsAfter(sb, before, 1);
    expect([start!.agent, start!.cwd, start!.argv.slice(0, 2)]).toEqual(['claude', dir, ['--resume', ended.conversationId]]);

    // Enter on the conversation the codex task holds goes to its window, starting nothing.
    await waitForScreen(sb, dash, /by state · \? help/, 'the list again');
    await pressKeys(sb, dash, 'h');
    await waitForScreen(sb, dash, /History of/, 'the history chooser again');
    await pressKeys(sb, dash, 'g', 'i', 'r');
    await waitFor(async () => !(await screen(sb, dash)).includes('zebra'), { what: 'the filter to leave only giraffe' });
    const starts = (await sb.agentStarts()).length;
    await pressKeys(sb, dash, 'Enter');
    await waitFor(async () => (await sb.tmux('list-windows', '-t', fleet.session, '-F', '#{window_active} #{window_id}')).includes(`1 ${second.windowId}`), { what: "the codex task's window to be active" });
    expect((await sb.agentStarts()).length).toBe(starts);
  });
});
