// send to each agent's fake (as measured: their composers, bracketed paste, codex's paste burst
// and gemini's fast return on) and to a plain command: each confirmed by what that agent's own
// signal or store says, right after its start (send waits for its composer), and its reply read
// back with output.
import { describe, expect, it } from 'vitest';
import type { ReplyOf } from '../../src/control/protocol.js';
import { paneText } from '../helpers/pane.js';
import { spawnIn, trustCopilotFolder } from '../sessions/kit.js';
import { world } from './world.js';

type Case = [agent: string, verdict: ReplyOf<'send'>['verdict'], turn: number | null, source: 'signal' | 'store' | null];

const CASES: Case[] = [
  ['codex', 'submitted', 1, 'signal'],
  ['gemini', 'submitted', 1, 'store'],
  ['opencode', 'submitted', 1, 'signal'],
  ['kilo', 'submitted', 1, 'signal'],
  ['pi', 'submitted', 1, 'signal'],
  ['copilot', 'submitted', 1, 'store'],
  ['qwen', 'submitted', 1, 'signal'],
  ['grok', 'unconfirmed', null, 'store'],
];

describe('send to each agent, right after its start', () => {
  it.each(CASES)('%s: %s (turn %s), its reply from its %s', async (agent, verdict, turn, source) => {
    const w = await world();
    const dir = await w.sb.mkdir('home', 'w', agent);
    if (agent === 'copilot') await trustCopilotFolder(w.sb, dir);
    const task = await spawnIn(w.fleet, dir, agent);
    const { code, reply } = await w.send(task.id, `hello ${agent}`);
    expect(reply, JSON.stringify(reply)).toMatchObject({ verdict, turn });
    expect(code).toBe(verdict === 'submitted' ? 0 : 1);
    if (verdict === 'unconfirmed') expect(reply.reason).toMatch(/grok sends no signal that it took a message/);
    await w.fleet.waitTask(task.id, (t) => t.conversationId !== null, 'its conversation known');
    const out = await w.fleet.cli('output', String(task.id), '--json');
    expect(out.exitCode, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ task: task.id, text: `fake reply to: hello ${agent}`, source });
  });

  it('types into a plain command: typed, exit 0, the lines as it reads them', async () => {
    const w = await world();
    const id = await w.fleet.run('cat');
    const task = await w.fleet.task(id);
    const { code, reply } = await w.send(id, 'one line for cat');
    expect(reply).toMatchObject({ verdict: 'typed', turn: null, conversationId: null });
    expect(code).toBe(0);
    expect((await paneText(w.sb, task.paneId)).split('\n').filter((l) => l === 'one line for cat')).toHaveLength(2); // echo, then cat
    const long = await w.fleet.cli('send', id, 'x'.repeat(1100));
    expect(long.exitCode).toBe(1);
    expect(long.stderr).toMatch(/line 1 is over 1023 bytes: a terminal in cooked mode drops a longer line/);
  });

  it('says typed_not_submitted when the text stays in the composer whatever Enter does (gemini ignoring every Enter after a paste)', async () => {
    const w = await world({ env: { FAKE_GEMINI_PASTE_ENTER_MS: '100000' } });
    const id = await w.fleet.run('gemini');
    const { code, reply } = await w.send(id, 'never submitted', '--timeout', '6');
    expect(code).toBe(1);
    expect(reply.verdict).toBe('typed_not_submitted');
    expect(reply.reason).toMatch(/still in task \d+'s composer after 4 Enter\(s\)/);
  });
});
