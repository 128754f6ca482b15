// A supervisor that dies loses nothing: tmux keeps the tasks, and the next `up` in that tmux
// session adopts them with capture and exit scraping intact.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { paneText, typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

/** The supervisor is its pane's own process (the fixture starts it without a shell). */
async function supervisorPid(sb: Sandbox, fleet: Fleet): Promise<number> {
  return Number((await sb.tmux('display-message', '-p', '-t', fleet.supervisorPane, '#{pane_pid}')).trim());
}

/** Starts a new supervisor in the same tmux session and waits until it answers. */
async function adopt(sb: Sandbox, fleet: Fleet): Promise<string> {
  const pane = (await sb.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${fleet.session}:`, '--',
    process.execPath, cliPath, 'up', '--headless')).trim();
  await sb.tmux('set-option', '-w', '-t', pane, 'remain-on-exit', 'on');
  await waitFor(async () => (await fleet.cli('ls', '--json')).exitCode === 0, { what: 'the new supervisor' });
  return pane;
}

describe.each(['SIGKILL', 'SIGTERM'] as const)('a supervisor killed with %s', (signal) => {
  it('is adopted by the next up with every task, capture and exit scraping intact', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const claude = await fleet.task(await fleet.run('claude'));
    const codex = await fleet.task(await fleet.run('codex'));
    const plain = await fleet.task(await fleet.run('sleep', '600'));
    await waitForText(sb, claude.paneId, '? for shortcuts');
    await typeLine(sb, claude.paneId, 'before the crash');
    await fleet.waitTask(claude.id, (t) => t.idSource === 'capture', 'claude captured');
    await waitForText(sb, codex.paneId, '›');
    await typeLine(sb, codex.paneId, 'codex before the crash');
    const codexId = (await fleet.waitTask(codex.id, (t) => t.idSource === 'capture', 'codex captured')).conversationId;

    const pid = await supervisorPid(sb, fleet);
    process.kill(pid, signal);
    await waitFor(async () => (await fleet.cli('ls')).exitCode === 3, { what: 'the fleet to be gone' });
    if (signal === 'SIGTERM') expect(await paneText(sb, fleet.supervisorPane)).toContain('leaving every task running');

    // While no supervisor runs: claude moves to a new conversation, codex exits with its hint.
    await typeLine(sb, claude.paneId, '/clear');
    await typeLine(sb, claude.paneId, 'after the crash');
    await waitForText(sb, claude.paneId, 'fake reply to: after the crash');
    await typeLine(sb, codex.paneId, '/exit');
    await waitForText(sb, codex.paneId, 'To continue this session');

    await adopt(sb, fleet);
    const tasks = await fleet.ls();
    expect(tasks.map((t) => t.id)).toEqual([claude.id, codex.id, plain.id]);
    expect(tasks.find((t) => t.id === codex.id)).toMatchObject({ state: 'exited', idSource: 'exit-hint', conversationId: codexId });
    const adoptedClaude = tasks.find((t) => t.id === claude.id);
    expect(adoptedClaude?.idSource).toBe('capture');
    expect(adoptedClaude?.conversationId).not.toBe(claude.conversationId);
    expect(tasks.find((t) => t.id === plain.id)?.state).toMatch(/running|idle/);

    // The dead supervisor's namespace stays while adopted tasks write into it, then goes.
    const oldCapture = (await sb.agentStarts())[0]?.env.FLEETCOM_CAPTURE_FILE;
    const oldNamespace = dirname(oldCapture!);
    expect(existsSync(oldNamespace)).toBe(true);
    await typeLine(sb, claude.paneId, '/exit');
    await fleet.waitTask(claude.id, (t) => t.state === 'exited', 'claude exited');
    for (const id of [claude.id, codex.id]) expect((await fleet.cli('rerun', String(id))).exitCode).toBe(0);
    expect((await fleet.cli('rm', String(plain.id))).exitCode).toBe(0);
    await waitFor(() => !existsSync(oldNamespace), { what: 'the old namespace to be removed' });
    expect((await fleet.task(codex.id)).command).toBe(`codex resume '${codexId}'`);
    expect((await fleet.task(claude.id)).command).toBe(`claude --resume '${adoptedClaude?.conversationId}'`);
  });
});
