// An agent typed into an interactive shell and adopted: the task follows the agent process,
// so its end is the task's exit while the shell lives on; /clear is followed through claude's
// registry; a rerun replaces the shell only once nothing runs in it; a supervisor restart keeps
// following it; and an earlier agent's hint left in the shell's scrollback is never this run's.
import { describe, expect, it } from 'vitest';
import type { LsRecord } from '../../src/control/protocol.js';
import { handSession, PROMPT, startInShell } from '../helpers/by-hand.js';
import { startFleet } from '../helpers/fleet.js';
import { paneText, typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { killSupervisor, upAgain } from '../helpers/supervisor.js';
import { waitFor } from '../helpers/wait-for.js';

const prompts = (text: string) => text.split('\n').filter((line) => line.startsWith(PROMPT.trimEnd())).length;

describe('an adopted agent under its shell', () => {
  it('ends as a task while its shell lives on, follows /clear, and reruns into its conversation once the shell is idle', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'proj');
    const pane = await startInShell(sb, await handSession(sb, 'work', dir), dir, 'claude');
    await waitForText(sb, pane.paneId, '? for shortcuts');
    await typeLine(sb, pane.paneId, 'first message');
    await waitForText(sb, pane.paneId, 'fake reply to: first message');
    const adopted = await fleet.cli('adopt', pane.paneId);
    expect(adopted.exitCode, adopted.stderr).toBe(0);
    const id = adopted.stdout.trim();
    const first = await fleet.task(id);
    expect(first).toMatchObject({ state: 'running', idSource: 'process', harness: 'claude' });

    // /clear: claude rewrites its registry record, and the task follows it once it holds a message.
    await typeLine(sb, pane.paneId, '/clear');
    await typeLine(sb, pane.paneId, 'after clear');
    await waitForText(sb, pane.paneId, 'fake reply to: after clear');
    const cleared = await fleet.waitTask(id, (t) => t.conversationId !== first.conversationId && t.idSource === 'process', 'the /clear followed');

    // The agent ends: the task exits with its hint while the shell prompts again.
    await typeLine(sb, pane.paneId, '/exit');
    const exited = await fleet.waitTask(id, (t) => t.state === 'exited', 'exited');
    expect(exited).toMatchObject({ idSource: 'exit-hint', conversationId: cleared.conversationId, resumeCommand: `claude --resume '${cleared.conversationId}'` });
    expect((await sb.tmux('display-message', '-p', '-t', pane.paneId, '#{pane_dead} #{pane_current_command}')).trim()).toBe('0 sh');

    // Something else runs in the shell: a rerun would kill it, so it is refused and says what runs.
    await typeLine(sb, pane.paneId, 'sleep 600');
    await waitFor(async () => (await sb.tmux('display-message', '-p', '-t', pane.paneId, '#{pane_current_command}')).trim() === 'sleep', { what: 'sleep to run' });
    const refused = await fleet.cli('rerun', id);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`task ${id} not rerun: the shell \\(pid \\d+\\) in pane ${pane.paneId} still runs pid \\d+ sleep 600`));
    await sb.tmux('send-keys', '-t', pane.paneId, 'C-c');
    await waitFor(async () => prompts(await paneText(sb, pane.paneId)) >= 3, { what: 'the shell to prompt again' });

    const rerun = await fleet.cli('rerun', id);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const again = await fleet.waitTask(id, (t) => t.state !== 'exited' && t.run === 1, 'rerun');
    expect(again).toMatchObject({ command: `claude --resume '${cleared.conversationId}'`, paneId: pane.paneId });
    const starts = await waitFor(async () => {
      const s = await sb.agentStarts();
      return s.length >= 2 && s;
    }, { what: 'the rerun to start claude' });
    expect(starts[1]?.argv.slice(0, 2)).toEqual(['--resume', cleared.conversationId]);
  });

  it('takes no hint an earlier agent left in the shell, and keeps following after a supervisor restart', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'proj');
    const pane = await startInShell(sb, await handSession(sb, 'work', dir), dir, 'claude');
    await waitForText(sb, pane.paneId, '? for shortcuts');
    await typeLine(sb, pane.paneId, 'an earlier conversation');
    await waitForText(sb, pane.paneId, 'fake reply to: an earlier conversation');
    await typeLine(sb, pane.paneId, '/exit');
    const earlierId = /claude --resume ([0-9a-f-]{36})/.exec(await waitForText(sb, pane.paneId, 'claude --resume '))?.[1];
    expect(earlierId).toBeTruthy();
    await waitFor(async () => prompts(await paneText(sb, pane.paneId)) >= 2, { what: 'the shell to prompt again' });
    await typeLine(sb, pane.paneId, 'claude');
    await waitFor(async () => (await sb.agentStarts()).length >= 2, { what: 'the second claude' });

    const id = (await fleet.cli('adopt', pane.paneId)).stdout.trim();
    expect(Number(id)).toBeGreaterThan(0);
    await killSupervisor(sb, fleet);
    await upAgain(sb, fleet);
    const kept: LsRecord = await fleet.task(id);
    expect(kept).toMatchObject({ state: expect.stringMatching(/running|idle/), harness: 'claude', paneId: pane.paneId });

    // This claude exits without a message: no hint of its own, and the earlier one's is not it.
    await typeLine(sb, pane.paneId, '/exit');
    const exited = await fleet.waitTask(id, (t) => t.state === 'exited', 'exited after the restart');
    expect(exited).toMatchObject({ conversationId: null, resumeCommand: 'claude' });
    expect(await paneText(sb, pane.paneId)).toContain(`claude --resume ${earlierId}`);
  });
});
