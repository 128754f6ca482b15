// The whole point of adopting: a user with claude and codex already running in tmux panes runs
// `fleetcom adopt --all` and `fleetcom save work`, gets each agent's own resume command, and
// after the tmux server is gone `fleetcom load work` brings each back into its conversation.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handSession, startInShell } from '../helpers/by-hand.js';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { processAlive, useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { readDoc, sessionsDir, startsAfter, tilde } from './kit.js';

describe('adopt, save, and load after a tmux restart', () => {
  it('brings hand-started claude and codex back into their own conversations', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const [api, web] = await Promise.all([sb.mkdir('home', 'src', 'api'), sb.mkdir('home', 'src', 'web')]);
    const work = await handSession(sb, 'work', api);
    const claude = await startInShell(sb, work, api, 'claude');
    const codex = await startInShell(sb, work, web, 'codex');
    await waitForText(sb, claude.paneId, '? for shortcuts');
    await waitForText(sb, codex.paneId, '›');
    await typeLine(sb, claude.paneId, 'days of work in claude');
    await typeLine(sb, codex.paneId, 'days of work in codex');
    await waitForText(sb, claude.paneId, 'fake reply to: days of work in claude');
    await waitForText(sb, codex.paneId, 'fake reply to: days of work in codex');

    const adopted = await fleet.cli('adopt', '--all');
    expect(adopted.exitCode, adopted.stderr).toBe(0);
    const tasks = await fleet.ls();
    const claudeId = tasks.find((t) => t.harness === 'claude')?.conversationId;
    const codexId = tasks.find((t) => t.harness === 'codex')?.conversationId;
    expect([claudeId, codexId]).toEqual([expect.any(String), expect.any(String)]);
    const saved = await fleet.cli('save', 'work');
    expect(saved.exitCode, saved.stderr).toBe(0);
    expect(saved.stderr).toContain("saved 'work': 2 command(s) (2 resumable)");
    expect((await readDoc(join(sessionsDir(sb), 'work.json'))).dirs).toEqual({
      [tilde(sb, api)]: [`claude --resume '${claudeId}'`],
      [tilde(sb, web)]: [`codex resume '${codexId}'`],
    });

    // tmux goes (a reboot): every pane, the agents and the supervisor with it.
    const before = await sb.agentStarts();
    await sb.killServer();
    await waitFor(() => before.every((s) => !processAlive(s.pid)), { what: 'the agents to end with the server' });

    const again = await startFleet(sb);
    const loaded = await again.cli('load', 'work');
    expect(loaded.exitCode, loaded.stderr).toBe(0);
    const resumed = await startsAfter(sb, before.length, 2);
    expect(resumed.map((s) => [s.agent, s.cwd, s.argv.slice(0, 2)]).sort()).toEqual([
      ['claude', api, ['--resume', claudeId]],
      ['codex', web, ['resume', codexId]],
    ]);
    // Each is in its conversation: the fakes read it back (a resume of an unknown id fails).
    const back = await again.ls();
    for (const t of back) await waitForText(sb, t.paneId, t.harness === 'claude' ? '? for shortcuts' : '›');
    expect(back.map((t) => [t.harness, t.conversationId, t.state])).toEqual([
      ['claude', claudeId, 'running'],
      ['codex', codexId, 'running'],
    ]);
  });
});
