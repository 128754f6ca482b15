// Each agent's conversation id through each channel, as `ls --json` and a rerun see it.
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function talk(sb: Sandbox, pane: string, ready: string, message: string): Promise<void> {
  await waitForText(sb, pane, ready);
  await typeLine(sb, pane, message);
  await waitForText(sb, pane, `fake reply to: ${message}`);
}

/** The agents' start records once there are `count` of them (a respawned agent logs a moment later). */
function startsOf(sb: Sandbox, count: number) {
  return waitFor(async () => {
    const starts = await sb.agentStarts();
    return starts.length >= count && starts;
  }, { what: `${count} agent start(s)` });
}

async function started(fleet: Fleet, command: string) {
  return fleet.task(await fleet.run(command));
}

describe('conversation ids by channel', () => {
  it('claude: the SessionStart capture names the pinned conversation once it has a message', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const task = await started(fleet, 'claude');
    expect(task).toMatchObject({ harness: 'claude', conversationId: null, idSource: null });
    await talk(sb, task.paneId, '? for shortcuts', 'first');
    const talking = await fleet.waitTask(task.id, (t) => t.idSource === 'capture', 'captured');
    const pin = (await startsOf(sb, 1))[0]?.argv[1];
    expect(talking.conversationId).toBe(pin);
  });

  it('claude: /clear moves the capture to the new conversation, and the exit hint confirms it', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const task = await started(fleet, 'claude');
    await talk(sb, task.paneId, '? for shortcuts', 'in the first conversation');
    const first = (await fleet.waitTask(task.id, (t) => t.idSource === 'capture', 'captured')).conversationId;
    await typeLine(sb, task.paneId, '/clear');
    await talk(sb, task.paneId, '❯', 'in the second conversation');
    const second = await fleet.waitTask(task.id, (t) => t.conversationId !== first && t.idSource === 'capture', 'new capture');
    expect(second.conversationId).toMatch(UUID);
    await typeLine(sb, task.paneId, '/exit');
    const exited = await fleet.waitTask(task.id, (t) => t.state === 'exited', 'exited');
    expect(exited).toMatchObject({ idSource: 'exit-hint', conversationId: second.conversationId });
    expect(exited.resumeCommand).toBe(`claude --resume '${second.conversationId}'`);
  });

  it('claude: a capture payload that is not a valid SessionStart changes nothing ls or save say', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const task = await started(fleet, 'claude');
    await talk(sb, task.paneId, '? for shortcuts', 'in the first conversation');
    const first = (await fleet.waitTask(task.id, (t) => t.idSource === 'capture', 'captured')).conversationId;
    // After a /clear and a message the task is in a conversation its pin is not.
    await typeLine(sb, task.paneId, '/clear');
    await talk(sb, task.paneId, '❯', 'in the second conversation');
    const second = (await fleet.waitTask(task.id, (t) => t.conversationId !== first && t.idSource === 'capture', 'new capture')).conversationId!;
    const capture = (await startsOf(sb, 1))[0]!.env.FLEETCOM_CAPTURE_FILE!;
    const saved = async () => JSON.parse((await fleet.cli('save', '--stdout')).stdout).dirs[sb.dir] as string[];
    for (const payload of [
      JSON.stringify({ session_id: second.toUpperCase(), hook_event_name: 'SessionStart', source: 'startup' }),
      JSON.stringify({ session_id: '11111111-2222-4333-8444-555555555555' }),
      'not JSON at all',
    ]) {
      await writeFile(capture, `${payload}\n`);
      // ls and save read the file afresh; asked again while the watcher reads it too.
      for (let i = 0; i < 5; i++) expect(await fleet.task(task.id)).toMatchObject({ conversationId: second, idSource: 'capture' });
      expect(await saved()).toEqual([`claude --resume '${second}'`]);
    }
  });

  it('claude that never got a message reruns bare', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const task = await started(fleet, 'claude');
    await waitForText(sb, task.paneId, '? for shortcuts');
    await typeLine(sb, task.paneId, '/exit');
    const exited = await fleet.waitTask(task.id, (t) => t.state === 'exited', 'exited');
    expect(exited).toMatchObject({ conversationId: null, resumeCommand: 'claude' });
    expect((await fleet.cli('rerun', String(task.id))).exitCode).toBe(0);
    const starts = await startsOf(sb, 2);
    expect(starts).toHaveLength(2);
    expect(starts[1]?.argv[0]).toBe('--session-id');
    expect(starts[1]?.argv[1]).not.toBe(starts[0]?.argv[1]);
    expect((await fleet.task(task.id)).command).toBe('claude');
  });

  it.each(['after', 'before'])('codex: the notify capture yields the real thread although the title notify comes %s', async (order) => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb, { env: { FAKE_CODEX_TITLE_ORDER: order } });
    const task = await started(fleet, 'codex');
    await talk(sb, task.paneId, '›', 'hello codex');
    const captured = await fleet.waitTask(task.id, (t) => t.idSource === 'capture', 'captured');
    await typeLine(sb, task.paneId, '/exit');
    const exited = await fleet.waitTask(task.id, (t) => t.state === 'exited', 'exited');
    expect(exited).toMatchObject({ idSource: 'exit-hint', conversationId: captured.conversationId });
    expect((await fleet.cli('rerun', String(task.id))).exitCode).toBe(0);
    const starts = await startsOf(sb, 2);
    expect(starts[1]?.argv.slice(0, 2)).toEqual(['resume', captured.conversationId]);
    expect(starts[1]?.env.FLEETCOM_CAPTURE_FILE).toMatch(new RegExp(`task-${task.id}-1\\.json$`));
  });

  it('codex exited without a message keeps no id: its Session ID line is not resumable', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const task = await started(fleet, 'codex');
    await waitForText(sb, task.paneId, '›');
    await typeLine(sb, task.paneId, '/exit');
    await waitForText(sb, task.paneId, 'Session ID:');
    const exited = await fleet.waitTask(task.id, (t) => t.state === 'exited', 'exited');
    expect(exited).toMatchObject({ conversationId: null, resumeCommand: 'codex' });
  });

  it('grok: the pinned id once its session exists (its first message), until the exit hint names it', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const task = await started(fleet, 'grok');
    // No message yet, so no session directory: `grok --resume <pin>` would fail.
    expect(task).toMatchObject({ idSource: null, conversationId: null, resumeCommand: 'grok' });
    await talk(sb, task.paneId, 'grok>', 'hi grok');
    const [start] = await startsOf(sb, 1);
    const pin = start!.argv[start!.argv.indexOf('--session-id') + 1];
    const talked = await fleet.waitTask(task.id, (t) => t.idSource === 'pinned', 'the pin, once grok talked');
    expect(talked.conversationId).toBe(pin);
    await typeLine(sb, task.paneId, '/exit');
    const exited = await fleet.waitTask(task.id, (t) => t.state === 'exited', 'exited');
    expect(exited).toMatchObject({ idSource: 'exit-hint', conversationId: pin });
    expect(exited.resumeCommand).toBe(`grok --resume '${pin}'`);
  });

  it('an opaque agent command is run verbatim, uninstrumented', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const task = await started(fleet, "claude 'fix the tests'");
    expect(task).toMatchObject({ harness: null, conversationId: null });
    const starts = await startsOf(sb, 1);
    expect(starts[0]).toMatchObject({ argv: ['fix the tests'], env: { FLEETCOM_CAPTURE_FILE: null } });
  });
});
