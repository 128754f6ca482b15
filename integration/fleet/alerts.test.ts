// Alerts end to end: the fake claude's hooks make a task need the user, the supervisor's rules
// decide, and a loopback webhook (or a command, or an attached client's terminal) receives it.
import { execa } from 'execa';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alertSink } from '../helpers/alert-sink.js';
import { personFormat, personsOnly } from '../helpers/client.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

/** A fleet whose config.json holds `notify` (given the sandbox, for paths inside it). */
async function alertWorld(notify: Record<string, unknown> | ((sb: Sandbox) => Record<string, unknown>), env: (sb: Sandbox) => Record<string, string> = () => ({})) {
  const sb = await useSandbox();
  Object.assign(sb.env, env(sb));
  const dir = sb.env.FLEETCOM_CONFIG_DIR ?? '';
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ notify: typeof notify === 'function' ? notify(sb) : notify }));
  const fleet = await startFleet(sb);
  return { sb, fleet };
}

async function startClaude(sb: Sandbox, fleet: Fleet) {
  const id = await fleet.run('claude');
  const task = await fleet.waitTask(id, (t) => t.attention === 'waiting', 'waiting at its fresh prompt');
  await waitForText(sb, task.paneId, '? for shortcuts');
  return task;
}

const logCount = async (fleet: Fleet, needle: string) => (await fleet.log()).split(needle).length - 1;

describe('the alert rules', () => {
  it('alert once the delay has passed, never for a wait answered within it; the webhook names the task', async () => {
    const sink = await alertSink();
    const { sb, fleet } = await alertWorld(
      { delaySeconds: 6, cooldownSeconds: 0, targets: [{ type: 'webhook', url: `${sink.url}/hook`, headers: { 'X-Key': 'k1' } }] },
      (sb) => ({ FAKE_CLAUDE_REPLY_GATE: join(sb.dir, 'gate') }),
    );
    const gate = join(sb.dir, 'gate');
    const task = await startClaude(sb, fleet);
    // A turn ends and the user answers at once: back to work within the delay.
    await typeLine(sb, task.paneId, 'hello');
    await fleet.waitTask(task.id, (t) => t.attention === 'working', 'working');
    writeFileSync(gate, '');
    const first = await fleet.waitTask(task.id, (t) => t.attention === 'waiting', 'waiting after the first reply');
    await typeLine(sb, task.paneId, 'more');
    const again = await fleet.waitTask(task.id, (t) => t.attention === 'working', 'working again');
    expect(Date.parse(again.attentionSince ?? '') - Date.parse(first.attentionSince ?? '')).toBeLessThan(6_000);
    // This wait lasts: one alert, no sooner than the delay after it began.
    writeFileSync(gate, '');
    const waiting = await fleet.waitTask(task.id, (t) => t.attention === 'waiting', 'waiting after the second reply');
    await waitFor(() => sink.requests.length === 1, { what: 'one alert', timeout: 30_000 });
    const [request] = sink.requests;
    expect(request?.at).toBeGreaterThanOrEqual(Date.parse(waiting.attentionSince ?? '') + 6_000 - 1_000); // ls rounds to the second
    expect(request?.path).toBe('/hook');
    expect(request?.headers['x-key']).toBe('k1');
    expect(request?.body).toMatchObject({
      task: task.id, label: 'claude', attention: 'waiting', message: 'claude is waiting for you',
      directory: task.cwd, conversation: waiting.conversationId, tasks: [{ task: task.id }],
    });
    expect(typeof request?.body.host).toBe('string');
    await waitFor(async () => (await logCount(fleet, 'alert: claude is waiting for you')) === 1, { what: 'the alert in the log' });
    expect(sink.requests).toHaveLength(1);
  });

  it('alert for a turn whose prompt and reply reach the supervisor in one write (a turn too fast to see between two reads)', async () => {
    const sink = await alertSink();
    const { sb, fleet } = await alertWorld({ delaySeconds: 0, cooldownSeconds: 0, targets: [{ type: 'webhook', url: sink.url }] });
    const task = await startClaude(sb, fleet);
    const [start] = await sb.agentStarts();
    const capture = start!.env.FLEETCOM_CAPTURE_FILE!;
    const hook = (event: string) => JSON.stringify({ session_id: start!.argv[1], hook_event_name: event });
    // Both hooks in one write: the supervisor can only ever read them together.
    appendFileSync(capture.replace(/\.json$/, '.events'), `${hook('UserPromptSubmit')}\n${hook('Stop')}\n`);
    await waitFor(() => sink.requests.length === 1, { what: 'the alert of the turn' });
    expect(sink.requests[0]?.body).toMatchObject({ task: task.id, attention: 'waiting' });
    expect(await fleet.task(task.id)).toMatchObject({ attention: 'waiting' });
  });

  it('keep one alert per kind within the cooldown; a question alerts with its own text, then a permission', async () => {
    const sink = await alertSink();
    const { sb, fleet } = await alertWorld((sb) => ({ delaySeconds: 1, cooldownSeconds: 600, targets: [
      { type: 'webhook', url: sink.url },
      { type: 'command', argv: ['/bin/sh', '-c', 'printf "%s|%s\\n" "$FLEETCOM_ATTENTION" "$FLEETCOM_MESSAGE" >> "$0"', join(sb.dir, 'cmd.log')] },
    ] }));
    const task = await startClaude(sb, fleet);
    await typeLine(sb, task.paneId, 'one');
    await waitFor(() => sink.requests.length === 1, { what: 'the first alert' });
    await typeLine(sb, task.paneId, 'two');
    await waitFor(async () => (await logCount(fleet, 'within the cooldown')) === 1, { what: 'the second turn kept quiet' });
    // AskUserQuestion: PreToolUse with the question, then the permission_prompt Notification.
    await typeLine(sb, task.paneId, 'please fake-question');
    await waitFor(() => sink.requests.length === 2, { what: 'the question alerted' });
    expect(sink.requests[1]?.body).toMatchObject({ attention: 'question', message: 'Deploy to prod now?' });
    expect(await fleet.task(task.id)).toMatchObject({ attention: 'waiting' });
    await waitForText(sb, task.paneId, 'Enter to select');
    // The answer: PostToolUse works again, the reply ends the turn (a wait within the cooldown).
    await typeLine(sb, task.paneId, 'Yes');
    await waitFor(async () => (await logCount(fleet, 'within the cooldown')) === 2, { what: 'the answered turn kept quiet' }).catch(async (e) => {
      throw new Error(`${e}\n${await fleet.log()}\n${await sb.tmux('capture-pane', '-p', '-t', task.paneId)}`);
    });
    await typeLine(sb, task.paneId, 'please fake-permission');
    await waitFor(() => sink.requests.length === 3, { what: 'the permission alerted' });
    expect(sink.requests.map((r) => r.body.attention)).toEqual(['waiting', 'question', 'permission']);
    await waitFor(() => existsSync(join(sb.dir, 'cmd.log')) && readFileSync(join(sb.dir, 'cmd.log'), 'utf8').split('\n').length === 4, { what: 'the command run three times' });
    expect(readFileSync(join(sb.dir, 'cmd.log'), 'utf8')).toBe('waiting|claude is waiting for you\nquestion|Deploy to prod now?\npermission|Claude needs your permission\n');
  });
});

/** A real client attached on `target` through `script`, whose terminal output is kept in a file. */
async function attachRecorded(sb: Sandbox, target: string) {
  const typescript = join(sb.dir, `client-${Date.now()}.out`);
  const client = execa('script', ['-qfec', `tmux -S '${sb.socket}' attach-session -t '${target}'`, typescript], {
    env: { ...sb.env, TERM: 'xterm-256color' }, extendEnv: false, stdin: 'pipe', stdout: 'ignore', stderr: 'ignore', reject: false,
  });
  await waitFor(async () => personsOnly(await sb.tmux('list-clients', '-F', personFormat('#{client_name}'))) !== '', { what: 'an attached client' });
  return { output: () => (existsSync(typescript) ? readFileSync(typescript, 'latin1') : ''), client };
}

describe('the watched window', () => {
  it('a task on the window an attached client shows (with fresh input) raises nothing; on another window it alerts, in that terminal too', async () => {
    const sink = await alertSink();
    const { sb, fleet } = await alertWorld({ delaySeconds: 1, cooldownSeconds: 0, targets: [{ type: 'webhook', url: sink.url }, { type: 'terminal' }] });
    const task = await startClaude(sb, fleet);
    const other = await fleet.task(await fleet.run('sleep', '600'));
    await sb.tmux('select-window', '-t', task.windowId);
    // tmux counts the attach itself as the client's latest input (client_activity).
    const client = await attachRecorded(sb, fleet.session);
    await typeLine(sb, task.paneId, 'hello');
    await waitFor(async () => (await logCount(fleet, 'not alerted (its window is being watched)')) === 1, { what: 'the watched task kept quiet' });
    expect(sink.requests).toHaveLength(0);
    expect(client.output()).not.toContain('\x1b]9;');

    await sb.tmux('select-window', '-t', other.windowId);
    await typeLine(sb, task.paneId, 'again');
    await waitFor(() => sink.requests.length === 1, { what: 'the alert once the user looks elsewhere' });
    await waitFor(() => client.output().includes('\x1b]9;fleetcom: claude: claude is waiting for you\x07'), { what: 'the OSC 9 in the attached terminal' });
    client.client.kill();
  });
});

describe('the supervisor\'s own control client', () => {
  it('watches nothing: a task on its session\'s current window alerts while the person is elsewhere, and keeps quiet once the person looks', async () => {
    const sink = await alertSink();
    const { sb, fleet } = await alertWorld({ delaySeconds: 1, cooldownSeconds: 0, targets: [{ type: 'webhook', url: sink.url }] });
    const task = await startClaude(sb, fleet);
    // The fleet's session shows the task: so does the supervisor's control client, attached
    // there a moment ago (tmux counts its attach as its latest input).
    await sb.tmux('select-window', '-t', task.windowId);
    await sb.startServer({ name: 'elsewhere' });
    const person = await attachRecorded(sb, 'elsewhere');
    await typeLine(sb, task.paneId, 'hello');
    await waitFor(() => sink.requests.length === 1, { what: 'the alert, nobody but fleetcom on the task\'s window' });
    expect(await logCount(fleet, 'not alerted (its window is being watched)')).toBe(0);
    // The person comes to the task's window: now it is watched.
    const name = personsOnly(await sb.tmux('list-clients', '-F', personFormat('#{client_name}')));
    await sb.tmux('switch-client', '-c', name, '-t', task.windowId);
    await typeLine(sb, task.paneId, 'again');
    await waitFor(async () => (await logCount(fleet, 'not alerted (its window is being watched)')) === 1, { what: 'the watched task kept quiet' });
    expect(sink.requests).toHaveLength(1);
    person.client.kill();
  });
});

describe('a target that hangs', () => {
  it('holds up neither the other targets nor ls, and is logged once', async () => {
    const hung = await alertSink({ hang: true });
    const { sb, fleet } = await alertWorld((sb) => ({ delaySeconds: 0, cooldownSeconds: 0, targets: [
      { type: 'webhook', url: hung.url, timeoutSeconds: 4 },
      { type: 'command', argv: ['/bin/sh', '-c', 'echo "$FLEETCOM_MESSAGE" >> "$0"', join(sb.dir, 'cmd.log')] },
    ] }));
    const lines = () => (existsSync(join(sb.dir, 'cmd.log')) ? readFileSync(join(sb.dir, 'cmd.log'), 'utf8').split('\n').filter(Boolean) : []);
    const task = await startClaude(sb, fleet);
    await typeLine(sb, task.paneId, 'one');
    await waitFor(() => hung.requests.length === 1 && lines().length === 1, { what: 'both targets reached, the webhook hanging' });
    const started = Date.now();
    expect((await fleet.cli('ls')).exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(3_000);
    await waitFor(async () => (await logCount(fleet, 'failed: no answer within 4 s')) === 1, { what: 'the hung webhook logged' });
    await typeLine(sb, task.paneId, 'two');
    await waitFor(() => hung.requests.length === 2 && lines().length === 2, { what: 'the second alert, both targets tried again' });
    // The second timeout passes in silence: said once until the target works again.
    await waitFor(() => hung.requests.every((r) => r.abandoned), { what: 'the webhook given up on twice' });
    await waitFor(async () => (await fleet.log()).includes('task 1 waiting'), { what: 'the log read after it' });
    expect(await logCount(fleet, 'failed: no answer within 4 s')).toBe(1);
  });
});
