// Attention end to end: the fake claude runs the overlay's hooks (the real payload shapes),
// the supervisor turns them into `ls --json` fields, the window option and glyph, the bell and
// the user's notify command; bad events files change nothing.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachClient, personFormat, personsOnly } from '../helpers/client.js';
import { cliPath } from '../helpers/cli.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

const OTHER_ID = '11111111-2222-4333-8444-555555555555';

async function windowFormat(sb: Sandbox, windowId: string, format: string): Promise<string> {
  return (await sb.tmux('display-message', '-p', '-t', windowId, format)).trim();
}

function notified(log: string): string[] {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

/** A fleet whose notify command appends `id|attention|label|message` to a log; claude replies held by a gate file. */
async function attentionWorld(before: (sb: Sandbox) => Promise<unknown> = async () => undefined) {
  const sb = await useSandbox();
  await before(sb);
  // Every transition told at once: the alert rules have their own tests (alerts.test.ts).
  mkdirSync(sb.env.FLEETCOM_CONFIG_DIR ?? '', { recursive: true });
  writeFileSync(join(sb.env.FLEETCOM_CONFIG_DIR ?? '', 'config.json'), JSON.stringify({ notify: { delaySeconds: 0, cooldownSeconds: 0 } }));
  const gate = join(sb.dir, 'reply-gate');
  const log = join(sb.dir, 'notified.log');
  sb.env.FAKE_CLAUDE_REPLY_GATE = gate;
  const command = `printf '%s|%s|%s|%s\\n' "$FLEETCOM_TASK_ID" "$FLEETCOM_ATTENTION" "$FLEETCOM_TASK_LABEL" "$FLEETCOM_MESSAGE" >> '${log}'`;
  const fleet = await startFleet(sb, { args: ['--notify-command', command] });
  return { sb, fleet, gate, log };
}

async function startClaude(sb: Sandbox, fleet: Fleet) {
  const id = await fleet.run('claude');
  const task = await fleet.waitTask(id, (t) => t.attention === 'waiting', 'waiting at its fresh prompt');
  await waitForText(sb, task.paneId, '? for shortcuts');
  return task;
}

describe('attention from claude hooks', () => {
  it('goes working on a prompt and waiting after the reply, in ls, the window option and name, with one bell and one notification', async () => {
    const { sb, fleet, gate, log } = await attentionWorld();
    const task = await startClaude(sb, fleet);
    expect(task.attentionSince).not.toBeNull();
    // A fresh prompt is not news: no bell, no notification.
    expect(notified(log)).toEqual([]);
    expect(await windowFormat(sb, task.windowId, '#{@fleetcom-attention}')).toBe('waiting');

    await typeLine(sb, task.paneId, 'hello');
    const working = await fleet.waitTask(task.id, (t) => t.attention === 'working', 'working while the reply is held');
    expect(await windowFormat(sb, task.windowId, '#{@fleetcom-attention}')).toBe('working');
    await waitFor(async () => (await windowFormat(sb, task.windowId, '#{window_name}')).startsWith('✻ '), { what: 'the working glyph' });

    writeFileSync(gate, '');
    const waiting = await fleet.waitTask(task.id, (t) => t.attention === 'waiting', 'waiting after the reply');
    expect(Date.parse(waiting.attentionSince ?? '')).toBeGreaterThanOrEqual(Date.parse(working.attentionSince ?? ''));
    await waitFor(async () => (await windowFormat(sb, task.windowId, '#{window_name}')) === '❯ claude', { what: 'the waiting glyph' });
    await waitFor(async () => (await windowFormat(sb, task.windowId, '#{window_bell_flag}')) === '1', { what: 'the bell in the task window' });
    await waitFor(() => notified(log).length === 1, { what: 'one notification' });
    expect(notified(log)).toEqual([`${task.id}|waiting|claude|claude is waiting for you`]);

    // A permission request: its own transition, claude's words as the message.
    await typeLine(sb, task.paneId, 'please fake-permission');
    const asking = await fleet.waitTask(task.id, (t) => t.attention === 'permission', 'permission');
    // ls --json carries claude's own words while it waits, as the dashboard and the web page show them.
    expect(asking.attentionMessage).toBe('Claude needs your permission');
    await waitFor(() => notified(log).length === 2, { what: 'a second notification' });
    expect(notified(log)[1]).toBe(`${task.id}|permission|claude|Claude needs your permission`);
    expect(await windowFormat(sb, task.windowId, '#{window_name}')).toBe('⚑ claude');

    // Allowed: the reply ends the turn, waiting again (a third notification, never a repeat).
    writeFileSync(gate, '');
    await typeLine(sb, task.paneId, '1');
    await fleet.waitTask(task.id, (t) => t.attention === 'waiting', 'waiting after the allowed tool');
    await waitFor(() => notified(log).length === 3, { what: 'a third notification' });

    // The exit: no attention, option gone, events file removed with the run on rm.
    await typeLine(sb, task.paneId, '/exit');
    const exited = await fleet.waitTask(task.id, (t) => t.state === 'exited', 'exited');
    expect(exited).toMatchObject({ attention: null, attentionSince: null, attentionMessage: null });
    expect(await windowFormat(sb, task.windowId, '#{@fleetcom-attention}')).toBe('');
    expect(notified(log)).toHaveLength(3);
  });

  it('ignores another conversation, garbage and a 10 MB events file, with a log line each, and keeps reading after them', async () => {
    const { sb, fleet } = await attentionWorld();
    const task = await startClaude(sb, fleet);
    const captureFile = (await sb.agentStarts()).find((a) => a.agent === 'claude')?.env.FLEETCOM_CAPTURE_FILE ?? '';
    const events = captureFile.replace(/\.json$/, '.events');
    expect(existsSync(events)).toBe(true);
    const before = await fleet.task(task.id);

    appendFileSync(events, `${JSON.stringify({ session_id: OTHER_ID, hook_event_name: 'UserPromptSubmit', prompt: 'x' })}\n`);
    await waitFor(async () => /ignored 1 event\(s\): UserPromptSubmit of conversation 1111/.test(await fleet.log()), { what: 'the other-id log line' });
    appendFileSync(events, 'not json at all\n{"half":\n');
    await waitFor(async () => /2 line\(s\) that are not JSON skipped/.test(await fleet.log()), { what: 'the garbage log line' });
    appendFileSync(events, `${'x'.repeat(10 * 1024 * 1024)}\n`);
    await waitFor(async () => /grew by \d+ bytes at once .*skipped/.test(await fleet.log()), { what: 'the 10 MB log line' });
    expect(await fleet.task(task.id)).toMatchObject({ attention: 'waiting', attentionSince: before.attentionSince, state: before.state });

    // The file's own claude still counts afterwards.
    await typeLine(sb, task.paneId, 'hello');
    await fleet.waitTask(task.id, (t) => t.attention === 'working', 'working after the bad input');
  });
});

describe('attention after a supervisor restart', () => {
  it('is read again from the events files, without telling anyone twice', async () => {
    const { sb, fleet, gate, log } = await attentionWorld();
    const task = await startClaude(sb, fleet);
    await typeLine(sb, task.paneId, 'hello');
    await fleet.waitTask(task.id, (t) => t.attention === 'working', 'working');
    writeFileSync(gate, '');
    await waitFor(() => notified(log).length === 1, { what: 'the notification of the turn' });

    const pid = Number(await windowFormat(sb, fleet.supervisorPane, '#{pane_pid}'));
    process.kill(pid, 'SIGTERM');
    await waitFor(async () => (await fleet.cli('ls')).exitCode === 3, { what: 'the fleet to be gone' });
    await sb.tmux('respawn-pane', '-k', '-t', fleet.supervisorPane, '--', process.execPath, cliPath, 'up', '--headless',
      '--notify-command', `echo adopted >> '${log}'`);
    const adopted = await fleet.waitTask(task.id, (t) => t.attention === 'waiting', 'waiting, read again after the restart');
    expect(adopted.attentionSince).not.toBeNull();
    expect(notified(log)).toHaveLength(1);
  });
});

describe('attention from the codex notifier', () => {
  it('a completed codex turn waits and notifies once; a plain command has no attention', async () => {
    const { sb, fleet, log } = await attentionWorld();
    const id = await fleet.run('codex');
    const plain = await fleet.run('sleep', '30');
    const task = await fleet.task(id);
    expect(task.attention).toBeNull();
    await waitForText(sb, task.paneId, '›');
    await typeLine(sb, task.paneId, 'hello codex');
    const waiting = await fleet.waitTask(id, (t) => t.attention === 'waiting', 'waiting after the turn');
    expect(waiting.conversationId).not.toBeNull();
    await waitFor(() => notified(log).length === 1, { what: 'one notification for the turn' });
    expect(notified(log)).toEqual([`${id}|waiting|codex|codex is waiting for you`]);
    expect((await fleet.task(plain)).attention).toBeNull();
  });
});

describe('attention from the codex title', () => {
  it('an approval prompt shows permission and notifies; approved, the turn ends waiting; refused, waiting without a turn notify', async () => {
    // Refused, the spinner stays longer than a reconciliation (2 s), as it can under load.
    const { sb, fleet, log } = await attentionWorld(async (sb) => (sb.env.FAKE_CODEX_REFUSE_MS = '3000'));
    const id = await fleet.run('codex');
    const task = await fleet.task(id);
    await waitForText(sb, task.paneId, '›');
    await typeLine(sb, task.paneId, 'please ask permission to touch a file');
    await fleet.waitTask(id, (t) => t.attention === 'permission', 'permission from the title');
    await waitFor(() => notified(log).length === 1, { what: 'one notification for the prompt' });
    expect(notified(log)).toEqual([`${id}|permission|codex|codex asks for your approval`]);

    await typeLine(sb, task.paneId, 'y');
    await fleet.waitTask(id, (t) => t.attention === 'waiting' && t.conversationId !== null, 'waiting after the approved turn');
    await waitFor(() => notified(log).length === 2, { what: 'the turn notification' });
    expect(notified(log)[1]).toBe(`${id}|waiting|codex|codex is waiting for you`);

    // Refused: codex ends the turn and says so only in its title.
    await typeLine(sb, task.paneId, 'ask permission again');
    await fleet.waitTask(id, (t) => t.attention === 'permission', 'permission again');
    await typeLine(sb, task.paneId, 'n');
    await fleet.waitTask(id, (t) => t.attention === 'waiting', 'waiting after the refusal');
    // The refusal is the user's own doing: no alert. A third prompt is told after it, and
    // nothing came between.
    await typeLine(sb, task.paneId, 'ask permission once more');
    await fleet.waitTask(id, (t) => t.attention === 'permission', 'permission a third time');
    await waitFor(() => notified(log).length >= 4, { what: 'the third prompt notified' });
    expect(notified(log).slice(2)).toEqual([`${id}|permission|codex|codex asks for your approval`, `${id}|permission|codex|codex asks for your approval`]);
  });
});

describe('attention from the gemini title', () => {
  it('ready waits without news, a turn works, its end and an approval prompt are told', async () => {
    // The supervisor's environment is the tasks': the gate goes in before it starts.
    const { sb, fleet, gate, log } = await attentionWorld(async (sb) => (sb.env.FAKE_GEMINI_REPLY_GATE = join(sb.dir, 'reply-gate')));
    const id = await fleet.run('gemini');
    const task = await fleet.task(id);
    await fleet.waitTask(id, (t) => t.attention === 'waiting', 'waiting at the ready prompt');
    await typeLine(sb, task.paneId, 'hello gemini');
    await fleet.waitTask(id, (t) => t.attention === 'working', 'working while the reply is held');
    expect(notified(log)).toEqual([]);
    writeFileSync(gate, '');
    await fleet.waitTask(id, (t) => t.attention === 'waiting', 'waiting after the reply');
    await waitFor(() => notified(log).length === 1, { what: 'the turn told' });
    expect(notified(log)).toEqual([`${id}|waiting|gemini|gemini is waiting for you`]);

    await typeLine(sb, task.paneId, 'please ask permission to touch a file');
    await fleet.waitTask(id, (t) => t.attention === 'permission', 'permission from the title');
    await waitFor(() => notified(log).length === 2, { what: 'the prompt told' });
    expect(notified(log)[1]).toBe(`${id}|permission|gemini|gemini asks for your approval`);
    await typeLine(sb, task.paneId, 'y');
    await fleet.waitTask(id, (t) => t.attention === 'working', 'working once allowed');
    writeFileSync(gate, '');
    await fleet.waitTask(id, (t) => t.attention === 'waiting', 'waiting after the allowed turn');
  });
});

describe('the next-task key', () => {
  it('prefix N shows a permission first, then the longest waiting; down restores the key it replaced', async () => {
    const { sb, fleet } = await attentionWorld(async (sb) => {
      await sb.startServer();
      await sb.tmux('bind-key', '-T', 'prefix', 'N', 'set-option', '-g', '@n-before', 'yes');
    });
    const first = await startClaude(sb, fleet);
    const second = await startClaude(sb, fleet);
    await typeLine(sb, second.paneId, 'go fake-permission');
    await fleet.waitTask(second.id, (t) => t.attention === 'permission', 'permission');

    const next = async () => {
      const r = await fleet.cli('next');
      expect(r.exitCode, r.stderr).toBe(0);
      return { id: Number(r.stdout.trim()), window: (await sb.tmux('display-message', '-p', '-t', fleet.session, '#{window_id}')).trim() };
    };
    expect(await next()).toEqual({ id: second.id, window: second.windowId });
    // From a task's own pane, the next one after it.
    const fromSecond = await fleet.cli('next', '--from', second.paneId);
    expect(fromSecond.stdout.trim()).toBe(String(first.id));

    // The key, pressed in a real client: the same order, then round again.
    await sb.tmux('select-window', '-t', `${fleet.session}:0`);
    const { type, client } = await attachClient(sb, 'fleet');
    const shown = async () => personsOnly(await sb.tmux('list-clients', '-F', personFormat('#{window_id}')));
    try {
      type('\x02N');
      await waitFor(async () => (await shown()) === second.windowId, { what: 'prefix N to show the permission' });
      type('\x02N');
      await waitFor(async () => (await shown()) === first.windowId, { what: 'prefix N to show the waiting task next' });
      type('\x02N');
      await waitFor(async () => (await shown()) === second.windowId, { what: 'prefix N to go round' });
    } finally {
      client.kill();
      await client;
    }

    // The binding: fleetcom's while the fleet runs, the user's own again after down.
    expect(await sb.tmux('list-keys', '-T', 'prefix', 'N')).toContain("'next' '--from-key'");
    const down = await fleet.cli('down');
    expect(down.exitCode, down.stderr).toBe(0);
    expect(await sb.tmux('list-keys', '-T', 'prefix', 'N')).toContain('@n-before');
  });

  it('fleetcom next says so when no task needs you', async () => {
    const { fleet } = await attentionWorld();
    await fleet.run('sleep', '30');
    const r = await fleet.cli('next');
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([1, '', 'no task needs you\n']);
  });
});
