// events: one line per transition, in the order they happened, for every kind (started,
// conversation captured, working and waiting with their turn, question and permission with
// their text, exited with its status, removed), until the fleet goes down.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { FeedEvent } from '../../src/control/protocol.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { listening, streamCli } from './stream-cli.js';
import { world } from './world.js';

describe('events', () => {
  it('tells every transition of the fleet in order, each with its turn or text, until the fleet goes down', async () => {
    const w = await world();
    const feed = streamCli(['events', '--json'], w.sb.env, w.sb.dir);
    onTestFinished(() => void feed.stop());
    await listening(feed, () => w.fleet.run('sleep', '1000'));
    const claude = await w.agent('claude');
    const human = streamCli(['events', '--task', String(claude.id)], w.sb.env, w.sb.dir);
    onTestFinished(() => void human.stop());
    expect((await w.send(claude.id, 'hello')).reply.turn).toBe(1);
    expect((await w.send(claude.id, 'fake-question now')).reply.turn).toBe(2);
    await waitForText(w.sb, claude.paneId, 'Deploy to prod now?');
    await typeLine(w.sb, claude.paneId, 'Yes');
    expect((await w.send(claude.id, 'fake-permission too')).reply.turn).toBe(3);
    await w.fleet.waitTask(claude.id, (t) => t.attention === 'permission', 'asking');
    await typeLine(w.sb, claude.paneId, '1');
    await w.fleet.waitTask(claude.id, (t) => t.attention === 'waiting' && t.turn === 3, 'turn 3 ended');
    const codex = await w.fleet.run('codex');
    expect((await w.send(codex, 'hi codex')).reply.turn).toBe(1);
    await w.fleet.waitTask(codex, (t) => t.conversationId !== null, 'codex conversation captured');
    await typeLine(w.sb, claude.paneId, '/exit');
    await w.fleet.waitTask(claude.id, (t) => t.state === 'exited', 'claude exited');
    expect((await w.fleet.cli('rm', String(claude.id))).exitCode).toBe(0);
    await feed.line((l) => l.includes('"type":"removed"'), 'removed');
    expect((await w.fleet.cli('down')).exitCode).toBe(0);
    const ended = await feed.ended();
    expect(ended).toEqual({ code: 0, stderr: 'events ended: the fleet went down\n' });

    const events = feed.lines().map((l) => JSON.parse(l) as FeedEvent);
    // The conversation is captured once claude has written its first message (when exactly, among the turn's events, is the watcher's).
    const of = (task: number) => events.filter((e) => e.task === task && e.type !== 'conversation').map((e) => [e.type, e.turn ?? e.text ?? e.exitStatus ?? e.conversationId ?? null]);
    const claudeIds = events.filter((e) => e.task === claude.id && e.type === 'conversation').map((e) => e.conversationId);
    expect(claudeIds).toHaveLength(1);
    expect(claudeIds[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(of(claude.id)).toEqual([
      // Ready at its prompt, before any turn (claude's SessionStart).
      ['started', null], ['waiting', 0],
      ['working', 1], ['waiting', 1],
      ['working', 2], ['question', 2], ['working', 2], ['waiting', 2],
      // Allowed, the tool runs and the turn ends: no hook says working in between.
      ['working', 3], ['permission', 3], ['waiting', 3],
      ['exited', 0],
      ['removed', null],
    ]);
    expect(events.find((e) => e.task === claude.id && e.type === 'question')?.text).toBe('Deploy to prod now?');
    expect(events.find((e) => e.task === claude.id && e.type === 'permission')?.text).toBe('Claude needs your permission');
    const codexEvents = of(Number(codex));
    expect(codexEvents[0]).toEqual(['started', null]);
    expect(codexEvents).toContainEqual(['working', 1]);
    expect(codexEvents).toContainEqual(['waiting', 1]);
    const captured = events.filter((e) => e.task === Number(codex) && e.type === 'conversation');
    expect(captured.map((e) => e.conversationId)).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    // The human form, of one task (connected some time after it started: its last events at least).
    expect((await human.ended()).code).toBe(0);
    expect(human.lines().every((l) => new RegExp(`^\\S+ task ${claude.id} \\(claude\\) `).test(l))).toBe(true);
    expect(human.lines().at(-1)).toMatch(new RegExp(` task ${claude.id} \\(claude\\) removed$`));
  });
});
