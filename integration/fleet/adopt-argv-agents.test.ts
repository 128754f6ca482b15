// gemini and opencode (and their forks qwen and kilo) started by hand: none records which
// process runs which session (their session files and databases name no pid), so only an id in
// argv names the conversation at adoption; one started bare is adopted with no id, says why, and
// gets its id from its exit hint. The two share a window, named by its id: each gets a window of
// its own.
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentPaneView } from '../../src/control/protocol.js';
import { handSession, PROMPT, startInShell } from '../helpers/by-hand.js';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { recoveryDir, snapshots } from '../sessions/kit.js';

const PINNED_ID = 'bbbbbbbb-1111-4222-8333-444444444444';
const PAIRS = [
  { pinned: 'gemini', pinnedReady: 'Type your message', bare: 'opencode', bareReady: 'Ask anything' },
  { pinned: 'qwen', pinnedReady: 'Type your message', bare: 'kilo', bareReady: 'Ask anything' },
] as const;

describe.each(PAIRS)('fleetcom adopt: agents whose argv alone can name their conversation', ({ pinned, pinnedReady, bare, bareReady }) => {
  it(`adopts ${pinned} with its --session-id and a bare ${bare} with no id until its hint`, async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'w');
    const work = await handSession(sb, 'work', dir);
    const pinnedPane = await startInShell(sb, work, dir, `${pinned} --session-id ${PINNED_ID}`);
    const split = ['split-window', '-d', '-P', '-F', '#{pane_id}', '-t', pinnedPane.windowId, '-c', dir, '-e', `PS1=${PROMPT}`, '-e', `PATH=${sb.env.PATH}`, '/bin/sh', '-i'];
    const barePane = { paneId: (await sb.tmux(...split)).trim() };
    await waitForText(sb, barePane.paneId, PROMPT.trimEnd());
    await typeLine(sb, barePane.paneId, bare);
    await waitForText(sb, pinnedPane.paneId, pinnedReady);
    await waitForText(sb, barePane.paneId, bareReady);
    for (const pane of [pinnedPane, barePane]) await typeLine(sb, pane.paneId, 'hello');
    await waitForText(sb, pinnedPane.paneId, 'hello');
    await waitForText(sb, barePane.paneId, 'fake reply to: hello');

    const listed = await fleet.cli('adopt', '--json');
    expect(listed.exitCode, listed.stderr).toBe(0);
    const panes = new Map((JSON.parse(listed.stdout) as { panes: AgentPaneView[] }).panes.map((p) => [p.paneId, p]));
    expect(panes.get(pinnedPane.paneId)).toMatchObject({
      agent: pinned, underShell: true, ownWindow: false, adoptable: true, conversationId: PINNED_ID, idFrom: 'its argv', resumeCommand: `${pinned} --resume '${PINNED_ID}'`,
    });
    expect(panes.get(barePane.paneId)).toMatchObject({
      agent: bare, underShell: true, adoptable: true, conversationId: null, resumeCommand: bare,
      why: `its argv names no conversation (${bare}'s database names no process of a session; its exit hint will tell)`,
    });

    const adopted = await fleet.cli('adopt', pinnedPane.windowId);
    expect(adopted.exitCode, adopted.stderr).toBe(0);
    expect(adopted.stdout.trim().split('\n')).toHaveLength(2);
    const tasks = new Map((await fleet.ls()).map((t) => [t.paneId, t]));
    expect(new Set([...tasks.values()].map((t) => t.windowId)).size).toBe(2);
    expect(tasks.get(pinnedPane.paneId)).toMatchObject({ harness: pinned, conversationId: PINNED_ID, idSource: 'process' });
    expect(tasks.get(barePane.paneId)).toMatchObject({ harness: bare, conversationId: null });

    // The recovery snapshot carries them like any task.
    await waitFor(async () => {
      const texts = await Promise.all((await snapshots(sb)).map((n) => readFile(join(recoveryDir(sb), n), 'utf8')));
      return texts.some((t) => t.includes(`${pinned} --resume '${PINNED_ID}'`) && t.includes(`"${bare}"`));
    }, { what: 'a recovery snapshot with the adopted tasks' });

    await typeLine(sb, barePane.paneId, '/exit');
    const exited = await fleet.waitTask(tasks.get(barePane.paneId)!.id, (t) => t.state === 'exited', `${bare} exited`);
    expect(exited).toMatchObject({ idSource: 'exit-hint', conversationId: expect.stringMatching(/^ses_[0-9A-Za-z]{26}$/) });
    const saved = await fleet.cli('save', '--stdout');
    expect((JSON.parse(saved.stdout) as { dirs: Record<string, string[]> }).dirs['~/w']?.sort()).toEqual(
      [`${pinned} --resume '${PINNED_ID}'`, exited.resumeCommand].sort(),
    );
    expect(exited.resumeCommand).toBe(`${bare} -s '${exited.conversationId}'`);
  });
});
