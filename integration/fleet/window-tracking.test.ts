// A task is its pane, wherever the user moves its window on the fleet's tmux server; a task
// whose window is really gone stays in the fleet, exited, with its conversation, until `rm`.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { talk } from '../sessions/kit.js';

describe('window tracking', () => {
  it('follows a task whose window moved to another session: capture, exit hint and rerun still work', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const claude = await fleet.task(await fleet.run('claude'));
    await talk(sb, claude, 'claude', 'before the move');
    const captured = (await fleet.waitTask(claude.id, (t) => t.idSource === 'capture', 'captured')).conversationId;
    const capture = (await sb.agentStarts())[0]!.env.FLEETCOM_CAPTURE_FILE!;

    await sb.tmux('new-session', '-d', '-s', 'elsewhere', 'sleep', '600');
    await sb.tmux('move-window', '-s', claude.windowId, '-t', 'elsewhere:');
    // `ls` reconciles first: the task is still ours, with its capture file.
    const moved = await fleet.task(claude.id);
    expect(moved).toMatchObject({ state: expect.stringMatching(/running|idle/), conversationId: captured, paneId: claude.paneId });
    expect(existsSync(capture)).toBe(true);

    await typeLine(sb, claude.paneId, '/exit');
    const exited = await fleet.waitTask(claude.id, (t) => t.state === 'exited', 'exited in the other session');
    expect(exited).toMatchObject({ idSource: 'exit-hint', conversationId: captured });
    expect((await fleet.cli('rerun', String(claude.id))).exitCode).toBe(0);
    expect(await fleet.task(claude.id)).toMatchObject({ run: 1, command: `claude --resume '${captured}'` });
    await waitForText(sb, claude.paneId, '? for shortcuts');
  });

  it('keeps a task whose window was closed outside fleetcom: exited, resumable, named in the log, until rm', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const claude = await fleet.task(await fleet.run('claude'));
    await talk(sb, claude, 'claude', 'then the window goes');
    const captured = (await fleet.waitTask(claude.id, (t) => t.idSource === 'capture', 'captured')).conversationId;
    const capture = (await sb.agentStarts())[0]!.env.FLEETCOM_CAPTURE_FILE!;

    await sb.tmux('kill-window', '-t', claude.windowId);
    const gone = await fleet.waitTask(claude.id, (t) => t.state === 'exited', 'exited once its window is gone');
    expect(gone).toMatchObject({ conversationId: captured, idSource: 'capture', exitStatus: null, killed: false });
    expect(existsSync(capture)).toBe(true);
    await waitForText(sb, fleet.supervisorPane, new RegExp(`task ${claude.id}: its window was closed outside fleetcom; kept .*conversation ${captured}`));
    const saved = await fleet.cli('save', '--stdout');
    expect(saved.stdout).toContain(`claude --resume '${captured}'`);

    // A rerun brings it back in a new window of the fleet, into the same conversation.
    expect((await fleet.cli('rerun', String(claude.id))).exitCode).toBe(0);
    const back = await fleet.task(claude.id);
    expect(back).toMatchObject({ run: 1, command: `claude --resume '${captured}'` });
    expect(back.windowId).not.toBe(claude.windowId);
    await waitForText(sb, back.paneId, '? for shortcuts');
    const windows = await sb.tmux('list-windows', '-t', fleet.session, '-F', '#{window_id}');
    expect(windows.split('\n')).toContain(back.windowId);

    expect((await fleet.cli('rm', String(claude.id))).exitCode).toBe(0);
    expect(await fleet.ls()).toEqual([]);
  });
});
