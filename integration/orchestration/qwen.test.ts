// qwen through fleetcom's hooks (its system-defaults overlay), the fake doing what qwen-code
// 0.24.4 did (clients/README.md): each prompt a turn that send, wait and output know, a
// permission and a question while the same turn goes on, a message steered into a turn, a
// /clear that starts a new conversation — and a qwen whose system defaults the overlay would
// stand in for, which gets no hooks and is confirmed by its transcript as before.
import { describe, expect, it } from 'vitest';
import { typeLine, waitForText } from '../helpers/pane.js';
import { world } from './world.js';

describe('qwen, heard through its hooks', () => {
  it('counts each prompt a turn: send says it, wait meets its end, output gives the reply from Stop', async () => {
    const w = await world();
    const task = await w.agent('qwen');
    expect(task).toMatchObject({ attention: 'waiting', turn: 0 });
    const sent = await w.send(task.id, 'first of two\nsecond line');
    expect(sent.reply).toMatchObject({ verdict: 'submitted', turn: 1 });
    expect((await w.fleet.cli('wait', String(task.id), '--turn', '1', '--timeout', '30')).exitCode).toBe(0);
    const out = JSON.parse((await w.fleet.cli('output', String(task.id), '--json')).stdout);
    expect(out).toMatchObject({ turn: 1, text: 'fake reply to: first of two\nsecond line', source: 'signal' });
    expect((await w.send(task.id, 'again')).reply).toMatchObject({ verdict: 'submitted', turn: 2 });
    await w.fleet.waitTask(task.id, (t) => t.turn === 2 && t.attention === 'waiting', 'turn 2 over');
    expect((await w.fleet.cli('output', String(task.id), '--turn', '1')).stdout).toBe('fake reply to: first of two\nsecond line\n');
  });

  it('asks a permission and a question within a turn: blocked sends, the question its text, one turn each', async () => {
    const w = await world();
    const task = await w.agent('qwen');
    expect((await w.send(task.id, 'please ask permission')).reply).toMatchObject({ verdict: 'submitted', turn: 1 });
    await w.fleet.waitTask(task.id, (t) => t.attention === 'permission', 'asking a permission');
    const blocked = await w.send(task.id, 'typed into the dialog?', '--timeout', '2');
    expect(blocked.reply.verdict).toBe('blocked');
    expect(blocked.reply.reason).toMatch(/asks for a permission \(Qwen Code needs your permission to use run_shell_command\)/);
    await typeLine(w.sb, task.paneId, '1');
    await w.fleet.waitTask(task.id, (t) => t.attention === 'waiting' && t.turn === 1, 'allowed, the turn over');
    expect((await w.fleet.cli('output', String(task.id))).stdout).toBe('fake reply to: please ask permission (allowed)\n');

    expect((await w.send(task.id, 'ask question now')).reply).toMatchObject({ verdict: 'submitted', turn: 2 });
    await waitForText(w.sb, task.paneId, 'Deploy to prod now?');
    const asked = await w.fleet.waitTask(task.id, (t) => t.attention === 'waiting' && t.attentionMessage === 'Deploy to prod now?', 'the question');
    expect(asked.turn).toBe(2);
    expect((await w.send(task.id, 'an answer?', '--timeout', '2')).reply.reason).toMatch(/asks a question \(Deploy to prod now\?\)/);
    await typeLine(w.sb, task.paneId, 'Yes');
    await w.fleet.waitTask(task.id, (t) => t.attention === 'waiting' && t.attentionMessage !== 'Deploy to prod now?', 'answered');
    expect((await w.fleet.cli('wait', String(task.id), '--turn', '2', '--timeout', '30')).exitCode).toBe(0);

    // Refused: qwen ends the turn with no Stop, only its return to the prompt.
    expect((await w.send(task.id, 'ask permission again')).reply.turn).toBe(3);
    await w.fleet.waitTask(task.id, (t) => t.attention === 'permission', 'asking again');
    await typeLine(w.sb, task.paneId, 'no');
    expect((await w.fleet.cli('wait', String(task.id), '--turn', '3', '--timeout', '30')).exitCode).toBe(0);
    expect((await w.fleet.task(task.id)).turn).toBe(3);
  });

  it('takes a message steered into a busy turn as part of it: one end, the reply to the last', async () => {
    const w = await world({ gated: true });
    const task = await w.agent('qwen');
    expect((await w.send(task.id, 'long job')).reply).toMatchObject({ verdict: 'submitted', turn: 1 });
    await w.fleet.waitTask(task.id, (t) => t.attention === 'working', 'working on the held turn');
    const steered = await w.send(task.id, 'and one more thing', '--now', '--timeout', '3');
    // qwen signals nothing for a steered message: the text left the composer, nothing more is known.
    expect(steered.reply).toMatchObject({ verdict: 'unconfirmed', turn: null });
    await w.open();
    expect((await w.fleet.cli('wait', String(task.id), '--turn', '1', '--timeout', '30')).exitCode).toBe(0);
    expect((await w.fleet.cli('output', String(task.id), '--json')).stdout).toContain('"text":"fake reply to: and one more thing"');
    expect((await w.fleet.ls()).find((t) => t.id === task.id)?.turn).toBe(1);
  });

  it('follows /clear to the new conversation: its turns heard, and save resumes it once it holds a message', async () => {
    const w = await world();
    const task = await w.agent('qwen');
    expect((await w.send(task.id, 'before the clear')).reply.turn).toBe(1);
    const before = await w.fleet.waitTask(task.id, (t) => t.conversationId !== null && t.attention === 'waiting', 'the first conversation known');
    await typeLine(w.sb, task.paneId, '/clear');
    // Nothing said since: neither the new session (nothing to resume) nor the one it left.
    await w.fleet.waitTask(task.id, (t) => t.conversationId === null, 'the pin left behind');
    expect((await w.send(task.id, 'after the clear')).reply).toMatchObject({ verdict: 'submitted', turn: 2 });
    const after = await w.fleet.waitTask(task.id, (t) => t.conversationId !== null && t.turn === 2 && t.attention === 'waiting', 'the new conversation known');
    expect(after.conversationId).not.toBe(before.conversationId);
    expect(after.resumeCommand).toBe(`qwen --resume '${after.conversationId}'`);
    expect((await w.fleet.cli('output', String(task.id))).stdout).toBe('fake reply to: after the clear\n');
  });

  it("adds no hooks where they would stand in for the user's system defaults: confirmed by the transcript, no turns", async () => {
    // Named by the user: qwen would read it (existing or not), so fleetcom does not replace it.
    const w = await world({ env: { QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/nonexistent/fleetcom-test/system-defaults.json' } });
    const id = await w.fleet.run('qwen');
    const sent = await w.send(id, 'hello without hooks');
    expect(sent.reply).toMatchObject({ verdict: 'submitted', turn: null });
    const task = await w.fleet.waitTask(id, (t) => t.conversationId !== null, 'its conversation known');
    expect(task).toMatchObject({ attention: null, turn: null });
    const waited = await w.fleet.cli('wait', id, '--turn', '1', '--timeout', '5');
    expect(waited.exitCode).toBe(1);
    expect(waited.stderr).toMatch(/sends no turn signals/);
    expect((await w.fleet.cli('output', id)).stdout).toBe('fake reply to: hello without hooks\n');
  });
});
