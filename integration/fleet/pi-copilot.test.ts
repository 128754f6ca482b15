// pi and copilot (the fakes, as measured on pi 1.6.0 and copilot 1.0.102) beyond the round
// trip: a conversation changed inside the pane (`/new`, `/clear`) is followed live by
// fleetcom's extension and hooks and saved; copilot's folder-trust question is left to the
// user; a copilot started by hand is adopted into the session its binary holds open.
import { describe, expect, it } from 'vitest';
import type { AgentPaneView } from '../../src/control/protocol.js';
import { handSession, startInShell } from '../helpers/by-hand.js';
import { startFleet } from '../helpers/fleet.js';
import { paneText, typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { READY, spawnIn, talk, trustCopilotFolder } from '../sessions/kit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('pi and copilot under fleetcom', () => {
  it('follows a /new in pi and a /clear in copilot into the next conversation, and saves that one', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const piDir = await sb.mkdir('home', 'w', 'pi');
    const copilotDir = await sb.mkdir('home', 'w', 'copilot');
    await trustCopilotFolder(sb, copilotDir);
    const pi = await spawnIn(fleet, piDir, 'pi');
    const copilot = await spawnIn(fleet, copilotDir, 'copilot');
    await talk(sb, pi, 'pi', 'first thing');
    await talk(sb, copilot, 'copilot', 'first thing');
    const first = await Promise.all([pi, copilot].map((t) => fleet.waitTask(t.id, (r) => r.idSource === 'capture' && r.attention === 'waiting', `${t.command}: captured, waiting`)));
    const [piFirst, copilotFirst] = first.map((t) => t.conversationId!);
    expect(piFirst).toMatch(UUID);

    await typeLine(sb, pi.paneId, '/new');
    await typeLine(sb, copilot.paneId, '/clear');
    await talk(sb, pi, 'pi', 'second thing');
    await talk(sb, copilot, 'copilot', 'second thing');
    const [piNext, copilotNext] = await Promise.all([
      fleet.waitTask(pi.id, (t) => t.conversationId !== piFirst && t.idSource === 'capture', 'pi in its new session'),
      fleet.waitTask(copilot.id, (t) => t.conversationId !== copilotFirst && t.idSource === 'capture', 'copilot in its fresh session'),
    ]);
    const saved = JSON.parse((await fleet.cli('save', '--stdout')).stdout) as { dirs: Record<string, string[]> };
    expect(saved.dirs['~/w/pi']).toEqual([`pi --session '${piNext.conversationId}'`]);
    expect(saved.dirs['~/w/copilot']).toEqual([`copilot --resume '${copilotNext.conversationId}'`]);
  });

  it("leaves copilot's folder-trust question to the user: nothing is answered, no id counts until a message", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'w', 'untrusted');
    const task = await spawnIn(fleet, dir, 'copilot');
    await waitForText(sb, task.paneId, 'Do you trust the files in this folder?');
    // A save resolves every task's conversation: the pinned id has no message behind it yet,
    // and the question still waits in the pane.
    const saved = JSON.parse((await fleet.cli('save', '--stdout')).stdout) as { dirs: Record<string, string[]> };
    expect(saved.dirs['~/w/untrusted']).toEqual(['copilot']);
    expect(await paneText(sb, task.paneId)).toContain('Do you trust the files in this folder?');
    expect(await paneText(sb, task.paneId)).not.toContain(READY.copilot);
    expect((await fleet.task(task.id)).conversationId).toBeNull();
    await typeLine(sb, task.paneId, '');
    await talk(sb, task, 'copilot', 'hello');
    await fleet.waitTask(task.id, (t) => t.idSource === 'capture', 'captured once trusted and talked to');
  });

  it('adopts a copilot started by hand into the session its binary holds open', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'w');
    await trustCopilotFolder(sb, dir);
    const work = await handSession(sb, 'work', dir);
    const pane = await startInShell(sb, work, dir, 'copilot');
    await waitForText(sb, pane.paneId, READY.copilot);
    await typeLine(sb, pane.paneId, 'hello');
    await waitForText(sb, pane.paneId, 'fake reply to: hello');
    // copilot writes the turn to its events.jsonl after it printed the reply (clients/README.md):
    // its session is resumable (a resume command, not a bare copilot) once its file holds the
    // message, as the real one's is.
    const view = await waitFor(async () => {
      const listed = await fleet.cli('adopt', '--json');
      expect(listed.exitCode, listed.stderr).toBe(0);
      const found = (JSON.parse(listed.stdout) as { panes: AgentPaneView[] }).panes.find((p) => p.paneId === pane.paneId);
      return found?.resumeCommand?.includes('--resume') === true ? found : false;
    }, { what: 'adopt --json to offer the copilot pane\'s conversation to resume' });
    expect(view).toMatchObject({ agent: 'copilot', adoptable: true, conversationId: expect.stringMatching(UUID), idFrom: expect.stringMatching(/^copilot session lock /) });
    expect(view!.resumeCommand).toBe(`copilot --resume '${view!.conversationId}'`);
    expect((await fleet.cli('adopt', pane.windowId)).exitCode).toBe(0);
    const [task] = await fleet.ls();
    expect(task).toMatchObject({ harness: 'copilot', conversationId: view!.conversationId, idSource: 'process' });
  });

  it("reports copilot's permission prompt and never takes a subagent's hooks for the task's", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const dir = await sb.mkdir('home', 'w');
    await trustCopilotFolder(sb, dir);
    const task = await spawnIn(fleet, dir, 'copilot');
    await waitForText(sb, task.paneId, READY.copilot);
    await typeLine(sb, task.paneId, 'please ask permission');
    await waitForText(sb, task.paneId, 'Do you want to run this command?');
    await fleet.waitTask(task.id, (t) => t.attention === 'permission', 'permission');
    await typeLine(sb, task.paneId, '1');
    const done = await fleet.waitTask(task.id, (t) => t.attention === 'waiting' && t.idSource === 'capture', 'waiting after the answer');
    await talk(sb, task, 'copilot', 'spawn subagent please');
    const after = await fleet.waitTask(task.id, (t) => t.attention === 'waiting' && t.attentionSince !== done.attentionSince, 'waiting after the delegated turn');
    expect(after.conversationId).toBe(done.conversationId);
  });
});
