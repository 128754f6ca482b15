// What an adopted agent reports without fleetcom's overlay: claude's registry status is its
// attention (idle: waiting, busy: working, waiting: permission); codex and grok report none.
// `doctor --fleet` checks adopted tasks like any other.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handSession, startInShell } from '../helpers/by-hand.js';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('an adopted agent\'s attention and doctor', () => {
  it('follows claude\'s registry status, reports none for codex, and passes doctor --fleet', async () => {
    const sb = await useSandbox();
    const gate = join(sb.dir, 'reply-gate');
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'proj');
    const work = await handSession(sb, 'work', dir);
    const claude = await startInShell(sb, work, dir, `FAKE_CLAUDE_REPLY_GATE=${gate} claude`);
    const codex = await startInShell(sb, work, dir, 'codex');
    await waitForText(sb, claude.paneId, '? for shortcuts');
    await waitForText(sb, codex.paneId, '›');
    await typeLine(sb, codex.paneId, 'a codex turn');
    await waitForText(sb, codex.paneId, 'fake reply to: a codex turn');
    expect((await fleet.cli('adopt', '--all')).exitCode).toBe(0);
    const [c, x] = await fleet.ls();
    expect([c?.harness, x?.harness]).toEqual(['claude', 'codex']);
    const claudeTask = c!.id;
    await fleet.waitTask(claudeTask, (t) => t.attention === 'waiting', 'claude idle: waiting');
    expect((await fleet.task(x!.id)).attention).toBeNull();

    await typeLine(sb, claude.paneId, 'held reply');
    await fleet.waitTask(claudeTask, (t) => t.attention === 'working', 'claude busy: working');
    await writeFile(gate, '');
    await waitForText(sb, claude.paneId, 'fake reply to: held reply');
    await fleet.waitTask(claudeTask, (t) => t.attention === 'waiting', 'claude idle again');
    await typeLine(sb, claude.paneId, 'fake-permission please');
    await fleet.waitTask(claudeTask, (t) => t.attention === 'permission', 'claude waiting on a permission');
    await typeLine(sb, claude.paneId, 'n');
    await fleet.waitTask(claudeTask, (t) => t.attention === 'waiting' && t.conversationId !== null, 'claude idle with its conversation');

    const doctor = await fleet.cli('doctor', '--fleet', '--json');
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    const entries = (JSON.parse(doctor.stdout) as { entries: Array<{ command: string; verdict: string; why: string }> }).entries;
    expect(entries.map((e) => [e.command.split(' ')[0], e.verdict, e.why])).toEqual([
      ['claude', 'ok', 'conversation found, open in this task only'],
      ['codex', 'ok', 'conversation found, open in this task only'],
    ]);
  });
});
