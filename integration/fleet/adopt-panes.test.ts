// `fleetcom adopt`: agents a user started by hand in panes of the fleet's tmux server — as the
// pane's own process, under `sh -c`, and typed into an interactive shell — listed with what
// each would become (nothing changes), then made tasks without restarting anything.
import { describe, expect, it } from 'vitest';
import type { AgentPaneView, LsRecord } from '../../src/control/protocol.js';
import { handSession, startDirectly, startInShell } from '../helpers/by-hand.js';
import { cliPath, runCli } from '../helpers/cli.js';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

const GROK_ID = 'aaaaaaaa-1111-4222-8333-444444444444';

describe('fleetcom adopt', () => {
  it('lists the hand-started agents with their conversations, then adopts them with their processes untouched', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'w', 'api');
    const work = await handSession(sb, 'work', dir);
    const direct = await startDirectly(sb, work, dir, ['claude', '--model', 'opus']);
    const underSh = await startDirectly(sb, work, dir, ['/bin/sh', '-c', 'claude; echo claude ended']);
    const codex = await startInShell(sb, work, dir, 'codex');
    const grok = await startInShell(sb, work, dir, `grok --session-id ${GROK_ID}`);
    for (const [pane, ready] of [[direct, '? for shortcuts'], [underSh, '? for shortcuts'], [codex, '›'], [grok, 'grok>']] as const) {
      await waitForText(sb, pane.paneId, ready);
    }
    await typeLine(sb, direct.paneId, 'hello direct');
    await typeLine(sb, codex.paneId, 'hello codex');
    // grok makes its session at the first message: before it, its pin is no conversation yet.
    await typeLine(sb, grok.paneId, 'hello grok');
    await waitForText(sb, direct.paneId, 'fake reply to: hello direct');
    await waitForText(sb, codex.paneId, 'fake reply to: hello codex');
    await waitForText(sb, grok.paneId, 'fake reply to: hello grok');
    const starts = await waitFor(async () => {
      const s = await sb.agentStarts();
      return s.length >= 4 && s;
    }, { what: 'four agents started' });
    // The two claudes start at once, in either order: the direct one is told by its --model.
    const directClaudePid = starts.find((s) => s.agent === 'claude' && s.argv.includes('--model'))!.pid;

    const listed = await fleet.cli('adopt', '--json');
    expect(listed.exitCode, listed.stderr).toBe(0);
    const panes = new Map((JSON.parse(listed.stdout) as { panes: AgentPaneView[] }).panes.map((p) => [p.paneId, p]));
    expect([...panes.keys()].sort()).toEqual([direct, underSh, codex, grok].map((p) => p.paneId).sort());
    const claudeId = panes.get(direct.paneId)!.conversationId;
    expect(panes.get(direct.paneId)).toMatchObject({
      agent: 'claude', pid: directClaudePid, command: 'claude', cwd: dir, underShell: false, ownWindow: true, adoptable: true,
      idFrom: expect.stringMatching(/^claude registry .*\/sessions\/\d+\.json$/), resumeCommand: `claude --resume '${claudeId}'`, why: null,
    });
    // The one under sh -c has a conversation but no message: resumable only from the first.
    expect(panes.get(underSh.paneId)).toMatchObject({ agent: 'claude', underShell: true, adoptable: true, resumeCommand: 'claude', why: expect.stringMatching(/holds no message yet/) });
    const codexId = panes.get(codex.paneId)!.conversationId;
    expect(panes.get(codex.paneId)).toMatchObject({
      agent: 'codex', underShell: true, idFrom: expect.stringMatching(/^the rollout it holds open, .*rollout-.*\.jsonl$/), resumeCommand: `codex resume '${codexId}'`,
    });
    expect(panes.get(grok.paneId)).toMatchObject({ agent: 'grok', conversationId: GROK_ID, idFrom: 'its argv', resumeCommand: `grok --resume '${GROK_ID}'` });
    // Listing changed nothing.
    expect(await sb.tmux('show-options', '-w', '-q', '-v', '-t', direct.windowId, '@fleetcom-task')).toBe('');
    expect(await fleet.ls()).toEqual([]);

    const adopted = await fleet.cli('adopt', '--all');
    expect(adopted.exitCode, adopted.stderr).toBe(0);
    expect(adopted.stdout.trim().split('\n')).toHaveLength(4);
    const tasks = new Map((await fleet.ls()).map((t) => [t.paneId, t]));
    expect(tasks.get(direct.paneId)).toMatchObject({
      harness: 'claude', command: 'claude', cwd: dir, state: 'running', conversationId: claudeId, idSource: 'process', windowId: direct.windowId,
    } satisfies Partial<LsRecord>);
    expect(tasks.get(codex.paneId)).toMatchObject({ harness: 'codex', conversationId: codexId, idSource: 'process' });
    expect(tasks.get(grok.paneId)).toMatchObject({ harness: 'grok', conversationId: GROK_ID, idSource: 'process' });
    expect(tasks.get(underSh.paneId)).toMatchObject({ harness: 'claude', conversationId: null, resumeCommand: 'claude' });
    // The window is a task's now; the agents are the same processes, still running.
    expect(await sb.tmux('show-options', '-w', '-v', '-t', direct.windowId, '@fleetcom-task')).toBe(String(tasks.get(direct.paneId)!.id));
    expect(await sb.tmux('show-options', '-w', '-v', '-t', direct.windowId, 'remain-on-exit')).toBe('on');
    expect((await sb.tmux('show-hooks', '-w', '-t', direct.windowId)).trim()).toMatch(/^pane-died\[0\] wait-for -S fleetcom-died-/);
    expect(process.kill(directClaudePid, 0)).toBe(true);
    expect((await sb.agentStarts()).length).toBe(4);

    const saved = await fleet.cli('save', '--stdout');
    expect(saved.exitCode).toBe(0);
    expect((JSON.parse(saved.stdout) as { dirs: Record<string, string[]> }).dirs['~/w/api']?.sort()).toEqual(
      ['claude', `claude --resume '${claudeId}'`, `codex resume '${codexId}'`, `grok --resume '${GROK_ID}'`].sort(),
    );
    // Adopting again finds nothing left: they are the fleet's tasks now.
    const again = await fleet.cli('adopt', '--json');
    expect((JSON.parse(again.stdout) as { panes: AgentPaneView[] }).panes).toEqual([]);

    // The agent that is its pane's own process ends like any task: the pane dies (kept by
    // remain-on-exit), the hint names the conversation, and a rerun respawns it there.
    const directTask = tasks.get(direct.paneId)!;
    await typeLine(sb, direct.paneId, '/exit');
    expect(await fleet.waitTask(directTask.id, (t) => t.state === 'exited', 'the direct claude exited')).toMatchObject({ idSource: 'exit-hint', conversationId: claudeId });
    expect((await sb.tmux('display-message', '-p', '-t', direct.paneId, '#{pane_dead}')).trim()).toBe('1');
    const rerun = await fleet.cli('rerun', String(directTask.id));
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const resumed = await waitFor(async () => (await sb.agentStarts())[4], { what: 'the rerun to start claude' });
    expect([resumed.agent, resumed.argv.slice(0, 2)]).toEqual(['claude', ['--resume', claudeId]]);
    expect((await fleet.task(directTask.id)).paneId).toBe(direct.paneId);
  });
});

describe('fleetcom up --adopt', () => {
  it('adopts the agent panes of its own tmux session at start, and no other session\'s', async () => {
    const sb = await useSandbox();
    const dir = await sb.mkdir('home', 'w');
    // The user's session, with claude running in a shell; up starts in a window beside it.
    const session = await handSession(sb, 'mine', dir);
    const mine = await startInShell(sb, session, dir, 'claude');
    const other = await startInShell(sb, await handSession(sb, 'other', dir), dir, 'codex');
    await waitForText(sb, mine.paneId, '? for shortcuts');
    await waitForText(sb, other.paneId, '›');
    await sb.tmux('new-window', '-d', '-t', `${session}:`, '--', process.execPath, cliPath, 'up', '--headless', '--adopt');
    const ls = () => runCli(['ls', '--json'], { env: sb.env, cwd: dir });
    const listed = await waitFor(async () => {
      const r = await ls();
      return r.exitCode === 0 && (JSON.parse(r.stdout) as LsRecord[]);
    }, { what: 'the fleet to answer' });
    expect(listed.map((t) => [t.paneId, t.harness, t.state])).toEqual([[mine.paneId, 'claude', 'running']]);
  });
});
