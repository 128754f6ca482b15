// output: each task's own reply, also for two tasks of one directory (never the newest file of
// it), from the turn-end signal or the agent's store for the task's own conversation; a
// conversation another process holds too is not read from the store; --screen says what it is.
import { describe, expect, it } from 'vitest';
import type { ReplyOf } from '../../src/control/protocol.js';
import { spawnInPane, typeLine, waitForText } from '../helpers/pane.js';
import { spawnIn, trustCopilotFolder } from '../sessions/kit.js';
import { supervisorPid, upAgain } from '../helpers/supervisor.js';
import { waitFor } from '../helpers/wait-for.js';
import { listening, streamCli } from './stream-cli.js';
import { world } from './world.js';

type Output = ReplyOf<'output'>;

describe('output', () => {
  it('gives two geminis of one directory (replies read from the store) and two claudes of another each its own reply', async () => {
    const w = await world();
    const shared = await w.sb.mkdir('home', 'w', 'shared');
    const [g1, g2] = [await spawnIn(w.fleet, shared, 'gemini'), await spawnIn(w.fleet, shared, 'gemini')];
    expect((await w.send(g1.id, 'first gemini')).reply.verdict).toBe('submitted');
    expect((await w.send(g2.id, 'second gemini')).reply.verdict).toBe('submitted');
    const other = await w.sb.mkdir('home', 'w', 'other');
    const [c1, c2] = [await spawnIn(w.fleet, other, 'claude'), await spawnIn(w.fleet, other, 'claude')];
    expect((await w.send(c2.id, 'second claude')).reply.verdict).toBe('submitted');
    expect((await w.send(c1.id, 'first claude')).reply.verdict).toBe('submitted');
    for (const [task, text, source] of [[g1, 'first gemini', 'store'], [g2, 'second gemini', 'store'], [c1, 'first claude', 'signal'], [c2, 'second claude', 'signal']] as const) {
      await w.fleet.waitTask(task.id, (t) => t.conversationId !== null && t.attention === 'waiting', 'its turn ended');
      const out = JSON.parse((await w.fleet.cli('output', String(task.id), '--json')).stdout) as Output;
      expect(out).toMatchObject({ task: task.id, turn: 1, text: `fake reply to: ${text}`, source });
      expect(out.conversationId).toBe((await w.fleet.task(task.id)).conversationId);
    }
  });

  it('reads the store when the signal carried no reply, and refuses a conversation another process holds too', async () => {
    const w = await world({ env: { FAKE_CLAUDE_STOP_WITHOUT_REPLY: '1' } });
    const task = await w.agent('claude');
    expect((await w.send(task.id, 'one')).reply.turn).toBe(1);
    expect((await w.send(task.id, 'two')).reply.turn).toBe(2);
    await w.fleet.waitTask(task.id, (t) => t.attention === 'waiting' && t.turn === 2, 'turn 2 ended');
    const id = (await w.fleet.task(task.id)).conversationId;
    const last = JSON.parse((await w.fleet.cli('output', String(task.id), '--json')).stdout) as Output;
    expect(last).toMatchObject({ turn: 2, text: 'fake reply to: two', source: 'store', conversationId: id });
    expect(last.from).toMatch(/\.jsonl$/);
    expect((await w.fleet.cli('output', String(task.id), '--turn', '1')).stdout).toBe('fake reply to: one\n');
    const notYet = await w.fleet.cli('output', String(task.id), '--turn', '3');
    expect(notYet.exitCode).toBe(1);
    expect(notYet.stderr).toMatch(/turn 3 of task \d+ has not ended \(2 turn\(s\) so far\)/);
    // The same conversation opened by hand in another pane: two processes hold it now.
    const hand = await spawnInPane(w.sb, w.fleet.session, `claude --resume ${id}`);
    await waitForText(w.sb, hand.paneId, '? for shortcuts');
    const refused = await w.fleet.cli('output', String(task.id));
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`conversation ${id} of task \\d+ is open in pid \\d+ .*too: its store may hold that process's turns`));
    await typeLine(w.sb, hand.paneId, '/exit');
  });

  it("waits for a store written after the turn's end (copilot's events.jsonl after its Stop): each turn its own reply", async () => {
    // Later than measured (66–138 ms), so that output surely asks before the file is there.
    const w = await world({ env: { FAKE_COPILOT_EVENTS_MS: '3000' } });
    const dir = await w.sb.mkdir('home', 'w', 'copilot');
    await trustCopilotFolder(w.sb, dir);
    const task = await spawnIn(w.fleet, dir, 'copilot');
    for (const [n, text] of [[1, 'first'], [2, 'second']] as const) {
      expect((await w.send(task.id, text)).reply).toMatchObject({ verdict: 'submitted', turn: n });
      expect((await w.fleet.cli('wait', String(task.id), '--turn', String(n), '--timeout', '30')).exitCode).toBe(0);
      const out = await w.fleet.cli('output', String(task.id), '--json');
      expect(out.exitCode, out.stderr).toBe(0);
      expect(JSON.parse(out.stdout)).toMatchObject({ turn: n, text: `fake reply to: ${text}`, source: 'store' });
    }
  });

  it('--screen gives the pane\'s text and says so; a plain command has only that', async () => {
    const w = await world();
    const id = await w.fleet.run('sh', '-c', 'echo on the screen; sleep 1000');
    const task = await w.fleet.task(id);
    await waitForText(w.sb, task.paneId, 'on the screen');
    const plain = await w.fleet.cli('output', id);
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toMatch(/is not an agent: only its screen can be read \(fleetcom output \d+ --screen\)/);
    const screen = await w.fleet.cli('output', id, '--screen');
    expect(screen.stdout).toContain('on the screen');
    expect(screen.stderr).toMatch(/^\(task \d+'s screen: the text of pane %\d+ \(its screen and history, not the agent's record\)\)\n$/);
    expect(JSON.parse((await w.fleet.cli('output', id, '--screen', '--json')).stdout)).toMatchObject({ source: 'screen', conversationId: null });
  });

  it('is known again to a supervisor started after one that stopped: turns and replies rebuilt from the signal file; streams told why they end', async () => {
    const w = await world();
    const task = await w.agent('claude');
    expect((await w.send(task.id, 'one')).reply.turn).toBe(1);
    expect((await w.send(task.id, 'two')).reply.turn).toBe(2);
    await w.fleet.waitTask(task.id, (t) => t.turn === 2 && t.attention === 'waiting', 'turn 2 ended');
    const feed = streamCli(['events', '--json'], w.sb.env, w.sb.dir);
    await listening(feed, () => w.fleet.run('sleep', '1000'));
    process.kill(await supervisorPid(w.sb, w.fleet.supervisorPane), 'SIGTERM');
    expect(await feed.ended()).toEqual({ code: 1, stderr: 'events ended: the supervisor stopped (its tasks run on; fleetcom up adopts them)\n' });
    await waitFor(async () => (await w.fleet.cli('ls')).exitCode === 3, { what: 'the fleet to be gone' });
    await upAgain(w.sb, w.fleet);
    expect((await w.fleet.task(task.id)).turn).toBe(2);
    for (const [turn, text] of [[1, 'one'], [2, 'two']] as const) {
      expect(JSON.parse((await w.fleet.cli('output', String(task.id), '--turn', String(turn), '--json')).stdout)).toMatchObject({ turn, text: `fake reply to: ${text}`, source: 'signal' });
    }
    expect((await w.send(task.id, 'three')).reply.turn).toBe(3);
  });
});
