// send into a claude that is busy, blocked, holding a person's draft, or gone: it waits for the
// turn to end (or says `busy`), `--now` goes into claude's own queue, a permission or question
// is never typed into, a draft is never merged into, an exited task says so.
import { describe, expect, it } from 'vitest';
import { paneText, pressKeys, typeLine, waitForText } from '../helpers/pane.js';
import { waitFor } from '../helpers/wait-for.js';
import { world } from './world.js';

describe('send to a claude that is not simply waiting', () => {
  it('waits for a busy turn to end (busy at the timeout); --now goes into its queue and is taken after the turn', async () => {
    const w = await world({ gated: true });
    const task = await w.agent('claude');
    expect((await w.send(task.id, 'first')).reply).toMatchObject({ verdict: 'submitted', turn: 1 });
    await w.fleet.waitTask(task.id, (t) => t.attention === 'working', 'working on the held turn');
    const busy = await w.send(task.id, 'too soon', '--timeout', '2');
    expect(busy.code).toBe(1);
    expect(busy.reply).toMatchObject({ verdict: 'busy', turn: null });
    expect(busy.reply.reason).toMatch(/working for the whole timeout; --now sends while it works \(the agent queues it for after its turn\)/);
    expect(await paneText(w.sb, task.paneId)).not.toContain('too soon');
    // Default: held until the turn ends, then delivered.
    const later = w.send(task.id, 'after the turn');
    await w.open();
    expect((await later).reply).toMatchObject({ verdict: 'submitted', turn: 2 });
    // --now into the busy turn 2: claude queues it, and takes it (its prompt signal) once turn 2 ends.
    await w.fleet.waitTask(task.id, (t) => t.attention === 'working' && t.turn === 2, 'working on turn 2');
    const queued = w.send(task.id, 'queued for later', '--now');
    await waitFor(async () => (await paneText(w.sb, task.paneId)).includes('queued for later'), { what: 'the text typed into the busy claude' });
    await w.open();
    expect((await queued).reply).toMatchObject({ verdict: 'submitted', turn: 3 });
  });

  it('ends a send waiting on a busy agent when the fleet goes down, saying so, with nothing typed', async () => {
    const w = await world({ gated: true });
    const task = await w.agent('claude');
    expect((await w.send(task.id, 'first')).reply).toMatchObject({ verdict: 'submitted', turn: 1 });
    await w.fleet.waitTask(task.id, (t) => t.attention === 'working', 'working on the held turn');
    const waiting = w.send(task.id, 'never typed', '--timeout', '600');
    await waitFor(async () => (await w.fleet.log()).includes(`task ${task.id}: a message waits for it to need input`), { what: 'the send to wait for the busy claude' });
    expect((await w.fleet.cli('down')).exitCode).toBe(0);
    const ended = await waiting;
    expect(ended.code).toBe(1);
    expect(ended.reply).toMatchObject({ verdict: 'blocked', turn: null });
    expect(ended.reply.reason).toMatch(/^nothing was typed into task \d+: /);
    expect(ended.reply.ms).toBeLessThan(60_000);
  });

  it("--now into claude 2.1.332, whose queued prompt is signalled at once: its turn is the next, each turn keeps its own reply", async () => {
    const w = await world({ gated: true, env: { FAKE_CLAUDE_QUEUE_HOOK: 'at-queue' } });
    const task = await w.agent('claude');
    expect((await w.send(task.id, 'first')).reply.turn).toBe(1);
    await w.fleet.waitTask(task.id, (t) => t.attention === 'working', 'working on turn 1');
    const queued = await w.send(task.id, 'queued', '--now');
    expect(queued.reply).toMatchObject({ verdict: 'submitted', turn: 2 });
    // Turn 1 ends, turn 2 (the queued prompt) starts at once: still working.
    await w.open();
    expect((await w.fleet.cli('wait', String(task.id), '--turn', '1')).exitCode).toBe(0);
    await w.fleet.waitTask(task.id, (t) => t.turn === 2 && t.attention === 'working', 'working on the queued turn 2');
    await w.open();
    expect((await w.fleet.cli('wait', String(task.id), '--turn', '2')).exitCode).toBe(0);
    expect((await w.fleet.cli('output', String(task.id), '--turn', '1')).stdout).toBe('fake reply to: first\n');
    expect((await w.fleet.cli('output', String(task.id), '--turn', '2')).stdout).toBe('fake reply to: queued\n');
  });

  it('is blocked by a permission prompt and by a question, typing nothing', async () => {
    const w = await world();
    const task = await w.agent('claude');
    expect((await w.send(task.id, 'please fake-permission')).reply.verdict).toBe('submitted');
    await w.fleet.waitTask(task.id, (t) => t.attention === 'permission', 'asking a permission');
    const blocked = await w.send(task.id, 'yes do it');
    expect(blocked.code).toBe(1);
    expect(blocked.reply.verdict).toBe('blocked');
    expect(blocked.reply.reason).toMatch(/asks for a permission \(Claude needs your permission\): answer it in its window/);
    await typeLine(w.sb, task.paneId, '1');
    await w.fleet.waitTask(task.id, (t) => t.attention === 'waiting', 'waiting after the permission');
    expect((await w.send(task.id, 'fake-question please')).reply.verdict).toBe('submitted');
    await waitForText(w.sb, task.paneId, 'Deploy to prod now?');
    await w.fleet.waitTask(task.id, (t) => t.attention === 'waiting' && t.turn === 2, 'the question');
    const question = await w.send(task.id, 'an answer');
    expect(question.reply).toMatchObject({ verdict: 'blocked' });
    expect(question.reply.reason).toMatch(/asks a question \(Deploy to prod now\?\)/);
    expect(await paneText(w.sb, task.paneId)).not.toMatch(/yes do it|an answer/);
  });

  it("never types into a person's draft: held, then blocked, the draft left as it was", async () => {
    const w = await world();
    const task = await w.agent('claude');
    await pressKeys(w.sb, task.paneId, '-l', 'half a thought');
    await waitForText(w.sb, task.paneId, '❯ half a thought');
    const held = await w.send(task.id, 'from the script', '--timeout', '2');
    expect(held.reply.verdict).toBe('blocked');
    expect(held.reply.reason).toMatch(/a draft is in task \d+'s composer \(14 characters\): fleetcom never types into a person's draft/);
    const text = await paneText(w.sb, task.paneId);
    expect(text).toContain('❯ half a thought');
    expect(text).not.toContain('from the script');
    // Sent by its person, the draft is claude's turn; the script's message comes after it.
    const after = w.send(task.id, 'from the script');
    await pressKeys(w.sb, task.paneId, 'Enter');
    expect((await after).reply).toMatchObject({ verdict: 'submitted', turn: 2 });
  });

  it('says exited for a task that has ended', async () => {
    const w = await world();
    const task = await w.agent('claude');
    await typeLine(w.sb, task.paneId, '/exit');
    await w.fleet.waitTask(task.id, (t) => t.state === 'exited', 'exited');
    const gone = await w.send(task.id, 'anyone there?');
    expect(gone.code).toBe(1);
    expect(gone.reply).toMatchObject({ verdict: 'exited', reason: `task ${task.id} exited with status 0` });
  });
});
