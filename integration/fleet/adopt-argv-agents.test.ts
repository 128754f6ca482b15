// gemini and opencode started by hand: neither records which process runs which session (their
// session files and opencode's database name no pid), so only an id in argv names the
// conversation at adoption; one started bare is adopted with no id, says why, and gets its id
// from its exit hint. The two share a window, named by its id: each gets a window of its own.
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

const GEMINI_ID = 'bbbbbbbb-1111-4222-8333-444444444444';

describe('fleetcom adopt: agents whose argv alone can name their conversation', () => {
  it('adopts gemini with its --session-id and a bare opencode with no id until its hint', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'w');
    const work = await handSession(sb, 'work', dir);
    const gemini = await startInShell(sb, work, dir, `gemini --session-id ${GEMINI_ID}`);
    const split = ['split-window', '-d', '-P', '-F', '#{pane_id}', '-t', gemini.windowId, '-c', dir, '-e', `PS1=${PROMPT}`, '-e', `PATH=${sb.env.PATH}`, '/bin/sh', '-i'];
    const opencode = { paneId: (await sb.tmux(...split)).trim() };
    await waitForText(sb, opencode.paneId, PROMPT.trimEnd());
    await typeLine(sb, opencode.paneId, 'opencode');
    await waitForText(sb, gemini.paneId, 'Type your message');
    await waitForText(sb, opencode.paneId, 'Ask anything');
    for (const pane of [gemini, opencode]) await typeLine(sb, pane.paneId, 'hello');
    await waitForText(sb, gemini.paneId, 'hello');
    await waitForText(sb, opencode.paneId, 'fake reply to: hello');

    const listed = await fleet.cli('adopt', '--json');
    expect(listed.exitCode, listed.stderr).toBe(0);
    const panes = new Map((JSON.parse(listed.stdout) as { panes: AgentPaneView[] }).panes.map((p) => [p.paneId, p]));
    expect(panes.get(gemini.paneId)).toMatchObject({
      agent: 'gemini', underShell: true, ownWindow: false, adoptable: true, conversationId: GEMINI_ID, idFrom: 'its argv', resumeCommand: `gemini --resume '${GEMINI_ID}'`,
    });
    expect(panes.get(opencode.paneId)).toMatchObject({
      agent: 'opencode', underShell: true, adoptable: true, conversationId: null, resumeCommand: 'opencode',
      why: expect.stringMatching(/its argv names no conversation \(opencode's database names no process of a session; its exit hint will tell\)/),
    });

    const adopted = await fleet.cli('adopt', gemini.windowId);
    expect(adopted.exitCode, adopted.stderr).toBe(0);
    expect(adopted.stdout.trim().split('\n')).toHaveLength(2);
    const tasks = new Map((await fleet.ls()).map((t) => [t.paneId, t]));
    expect(new Set([...tasks.values()].map((t) => t.windowId)).size).toBe(2);
    expect(tasks.get(gemini.paneId)).toMatchObject({ harness: 'gemini', conversationId: GEMINI_ID, idSource: 'process' });
    expect(tasks.get(opencode.paneId)).toMatchObject({ harness: 'opencode', conversationId: null });

    // The recovery snapshot carries them like any task.
    await waitFor(async () => {
      const texts = await Promise.all((await snapshots(sb)).map((n) => readFile(join(recoveryDir(sb), n), 'utf8')));
      return texts.some((t) => t.includes(`gemini --resume '${GEMINI_ID}'`) && t.includes('"opencode"'));
    }, { what: 'a recovery snapshot with the adopted tasks' });

    await typeLine(sb, opencode.paneId, '/exit');
    const exited = await fleet.waitTask(tasks.get(opencode.paneId)!.id, (t) => t.state === 'exited', 'opencode exited');
    expect(exited).toMatchObject({ idSource: 'exit-hint', conversationId: expect.stringMatching(/^ses_[0-9A-Za-z]{26}$/) });
    const saved = await fleet.cli('save', '--stdout');
    expect((JSON.parse(saved.stdout) as { dirs: Record<string, string[]> }).dirs['~/w']?.sort()).toEqual(
      [`gemini --resume '${GEMINI_ID}'`, exited.resumeCommand].sort(),
    );
    expect(exited.resumeCommand).toBe(`opencode -s '${exited.conversationId}'`);
  });
});
