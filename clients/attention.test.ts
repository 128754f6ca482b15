// The real claude (version pinned in clients/manifest.json) through fleetcom's attention: its
// own hooks in fleetcom's overlay say working, waiting and permission — offline, answered by
// the mock API (a held turn keeps it working; a Bash tool call makes it ask for permission).
// The real codex's approval prompt, read from its terminal title; gemini's state from its
// title; qwen's from fleetcom's hooks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { killCodexDaemons } from './helpers/background.js';
import { proven } from './helpers/proven.js';
import { clientsOf } from './helpers/clients.js';
import { clientProcess, REPLY_MS, START_MS, submit, waitForText, waitReady } from './helpers/drive.js';
import { waitFor, waitTask } from './helpers/poll.js';
import { useClientWorld } from './helpers/world.js';
import { HOLD_MARK, PLAN_MARK, QUESTION_MARK, QUESTION_TEXT, REPLY_MARK, startMockApi, TOOL_CALL_MARK, type MockApi } from './mock-api.js';


let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

// Measured on the pinned claude only (the first of the manifest); the newest is not yet.
/** The supervisor's log line of a task's attention, with the turn it names (`task 3 waiting (turn 2): …`). */
function logged(id: number | string, attention: string, message: string): RegExp {
  const text = message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`task ${id} ${attention}( \\(turn \\d+\\))?: ${text}`);
}

describe.each(clientsOf('claude').slice(0, 1))('$agent $version (Node $node): attention from its hooks', (client) => {
  it('a turn goes working → waiting, and a permission request shows permission', async () => {
    // SessionStart: a fresh prompt waits for the user.
    const { w, id, task, events, fresh } = await freshClaude(client);

    // UserPromptSubmit while the mock holds the reply: working, for as long as it is held.
    await submit(w.sb, task.paneId, `hello ${HOLD_MARK}`);
    const working = await waitTask(w.fleet, id, (t) => t.attention === 'working', 'working while the reply is held', REPLY_MS);
    expect(Date.parse(working.attentionSince ?? '')).toBeGreaterThanOrEqual(Date.parse(fresh.attentionSince ?? ''));
    await waitFor(() => api.held() > 0, { what: 'the turn to reach the mock', timeout: REPLY_MS });
    expect((await w.fleet.task(id)).attention).toBe('working');
    api.releaseHeld();

    // Stop: the turn is over.
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting', 'waiting after the reply', REPLY_MS);

    // A Bash tool call: claude asks, and its Notification permission_prompt (~6 s later) says so.
    await submit(w.sb, task.paneId, `please ${TOOL_CALL_MARK}`);
    await waitForText(w.sb, task.paneId, 'Do you want to proceed?', REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'permission', 'permission', REPLY_MS);

    // The events file is the run's own (0600); the prompts went nowhere else fleetcom writes.
    expect(statSync(events).mode & 0o777).toBe(0o600);
    const runtime = w.sb.env.FLEETCOM_RUNTIME_DIR ?? '';
    for (const name of readdirSync(runtime)) {
      if (name.endsWith('.json')) expect(readFileSync(join(runtime, name), 'utf8')).not.toContain(HOLD_MARK);
    }
    expect((await w.fleet.log())).not.toContain(HOLD_MARK);
  });
});

// A question (AskUserQuestion) and a plan (ExitPlanMode) through the overlay's PreToolUse and
// PostToolUse matchers, on every claude of the manifest.
describe.each(clientsOf('claude'))('$agent $version (Node $node): a question and a plan', (client) => {
  it('a question waits with its text, the permission_prompt after it changes nothing, the answer works again', async () => {
    const { w, id, task, events } = await freshClaude(client);

    await submit(w.sb, task.paneId, `please ${QUESTION_MARK}`);
    await waitForText(w.sb, task.paneId, 'Enter to select', REPLY_MS);
    await waitFor(async () => logged(id, 'waiting', QUESTION_TEXT).test(await w.fleet.log()), { what: 'the question as the message', timeout: REPLY_MS });
    // The Notification that follows (measured: permission_prompt, "Claude needs your permission").
    await waitFor(() => hooksOf(events).includes('Notification'), { what: 'the permission_prompt after the question', timeout: REPLY_MS });
    expect((await w.fleet.task(id)).attention).toBe('waiting');
    expect(await w.fleet.log()).not.toContain(`task ${id} permission`);

    // The first option: PostToolUse, the reply, Stop.
    await w.sb.tmux('send-keys', '-t', task.paneId, 'Enter');
    await waitFor(() => hooksOf(events).includes('PostToolUse'), { what: 'PostToolUse after the answer', timeout: REPLY_MS });
    await waitFor(async () => /task \d+ working( \(turn \d+\))?(, then |\n(.*\n)*.*task \d+ )waiting( \(turn \d+\))?$/m.test(await w.fleet.log()) || (await w.fleet.log()).split(`task ${id} waiting`).length > 3, { what: 'working, then waiting after the reply', timeout: REPLY_MS });
    const order = hooksOf(events).filter((e) => e !== 'UserPromptSubmit' && e !== 'SessionStart');
    expect(order.slice(0, 4)).toEqual(['PreToolUse', 'Notification', 'PostToolUse', 'Stop']);
  });

  it('a plan to approve (ExitPlanMode in plan mode): measured, and shown as a question', async () => {
    // Started in plan mode by the project's settings (shift+tab's cycle differs between
    // versions, and a claude with flags is not pinned).
    const { w, id, task, events } = await freshClaude(client, async (project) => {
      await mkdir(join(project, '.claude'), { recursive: true });
      await writeFile(join(project, '.claude', 'settings.json'), `${JSON.stringify({ permissions: { defaultMode: 'plan' } })}\n`);
    });
    await waitForText(w.sb, task.paneId, /plan mode on/i, START_MS);
    await submit(w.sb, task.paneId, `please ${PLAN_MARK}`);
    // Measured: 2.1.197's PreToolUse carries the plan (`tool_input.plan`); 2.1.332's carries an
    // empty tool_input (the plan stays in its plan file), so the message says only that a plan waits.
    await waitFor(() => hooksOf(events).includes('PreToolUse'), { what: 'PreToolUse of ExitPlanMode', timeout: REPLY_MS });
    const input = preToolInput(events);
    const message = typeof input.plan === 'string' ? 'Plan to approve: Rename the probe' : 'Claude has a plan for you to approve';
    if (client.version === clientsOf('claude')[0]?.version) expect(input.plan).toEqual(expect.any(String));
    await waitFor(async () => logged(id, 'waiting', message).test(await w.fleet.log()), { what: `the message ${message}`, timeout: REPLY_MS });
    // Measured on 2.1.197: the "Exit plan mode?" dialog, PreToolUse then the permission_prompt Notification.
    await waitForText(w.sb, task.paneId, 'Exit plan mode?', REPLY_MS);
    await waitFor(() => hooksOf(events).includes('Notification'), { what: 'the Notification after the plan', timeout: REPLY_MS });
    expect(hooksOf(events).filter((e) => e !== 'UserPromptSubmit' && e !== 'SessionStart')).toEqual(['PreToolUse', 'Notification']);
    expect((await w.fleet.task(id)).attention).toBe('waiting');
    expect(await w.fleet.log()).not.toContain(`task ${id} permission`);
  });
});

// codex: no event reports its approval prompt (hooks need trusting in its own UI first; the
// notifier says only agent-turn-complete); its terminal title does (clients/README.md).
describe.each(clientsOf('codex'))('$agent $version (Node $node): an approval from its title', (client) => {
  it('an exec approval shows permission, approved the turn ends waiting; refused, waiting again', async () => {
    const w = await useClientWorld(client, api);
    onTestFinished(() => killCodexDaemons(w.sb.home));
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'codex');
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const task = await w.fleet.task(id);
    await waitReady(w.sb, task.paneId);

    // The mock answers with exec_command asking to run outside the sandbox: codex asks first.
    await submit(w.sb, task.paneId, `please ${TOOL_CALL_MARK}`);
    await waitForText(w.sb, task.paneId, 'Would you like to run the following command?', REPLY_MS);
    const title = async () => (await w.sb.tmux('display-message', '-p', '-t', task.paneId, '#{pane_title}')).trim();
    expect(await title()).toMatch(/^\[ [!.] \] Action Required \| please /);
    await waitTask(w.fleet, id, (t) => t.attention === 'permission', 'permission from the title', REPLY_MS);
    await waitFor(async () => logged(id, 'permission', 'codex asks for your approval').test(await w.fleet.log()), { what: 'the permission logged', timeout: REPLY_MS });

    // Approved (the first option): the command runs, the turn ends, the notifier says waiting.
    await w.sb.tmux('send-keys', '-t', task.paneId, 'Enter');
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting' && t.conversationId !== null, 'waiting after the approved turn', REPLY_MS);
    expect(await title()).not.toMatch(/Action Required/);

    // Refused (Esc): codex ends the turn with no notify; only its title says it is idle again.
    await submit(w.sb, task.paneId, `again ${TOOL_CALL_MARK}`);
    await waitTask(w.fleet, id, (t) => t.attention === 'permission', 'permission again', REPLY_MS);
    await w.sb.tmux('send-keys', '-t', task.paneId, 'Escape');
    await waitForText(w.sb, task.paneId, 'You canceled the request', REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting', 'waiting after the refusal', REPLY_MS);
    proven(client, 'approval', 'its pane title `[ ! ] Action Required | …` while the prompt waits: permission; approved or refused, waiting');
  });
});

// gemini: no hook can be added to one launch; its terminal title (on by default) tells its state.
describe.each(clientsOf('gemini'))('$agent $version (Node $node): attention from its title', (client) => {
  it('ready waits, a held turn works, its reply waits; a shell call to confirm shows permission', async () => {
    const w = await useClientWorld(client, api);
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'gemini');
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const task = await w.fleet.task(id);
    const ready = 'Type your message';
    await waitForText(w.sb, task.paneId, ready, 2 * START_MS);
    const title = async () => (await w.sb.tmux('display-message', '-p', '-t', task.paneId, '#{pane_title}')).trim();
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting', 'waiting at its prompt', START_MS);
    expect(await title()).toBe('◇  Ready (project)');

    await submit(w.sb, task.paneId, `hello ${HOLD_MARK}`, (text) => text.includes(ready));
    await waitFor(() => api.held() > 0, { what: 'the turn to reach the mock', timeout: REPLY_MS });
    await waitTask(w.fleet, id, (t) => t.attention === 'working', 'working while the reply is held', REPLY_MS);
    expect(await title()).toMatch(/^✦ {2}/);
    api.releaseHeld();
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting', 'waiting after the reply', REPLY_MS);
    await waitFor(async () => (await w.fleet.log()).includes(`task ${id} waiting`), { what: 'the turn logged', timeout: REPLY_MS });

    // run_shell_command: gemini asks "Allow execution of [Shell]?" and its title says so.
    await submit(w.sb, task.paneId, `please ${TOOL_CALL_MARK}`, (text) => text.includes('Allow execution'));
    await waitTask(w.fleet, id, (t) => t.attention === 'permission', 'permission from the title', REPLY_MS);
    expect(await title()).toBe('✋  Action Required (project)');
    await w.sb.tmux('send-keys', '-t', task.paneId, 'Enter');
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting', 'waiting after the allowed call', REPLY_MS);
    proven(client, 'attention', 'its pane title: `◇  Ready` waiting, `✦  Working…` working, `✋  Action Required` permission');
  });
});

// qwen: fleetcom's hooks in a system-defaults overlay of its own (QWEN_CODE_SYSTEM_DEFAULTS_PATH).
// qwen's own default approval mode (`auto`) has a model call judge each tool; the user's
// settings ask instead (`tools.approvalMode: "default"`), as a user who wants to be asked has.
describe.each(clientsOf('qwen'))('$agent $version (Node $node): attention from its hooks', (client) => {
  it('a held turn works, its reply waits; a shell call asks; a question waits with its text; /clear moves to the new session', async () => {
    const w = await useClientWorld(client, api);
    const settings = join(w.sb.env.QWEN_HOME ?? join(w.sb.home, '.qwen'), 'settings.json');
    await writeFile(settings, `${JSON.stringify({ ...(JSON.parse(readFileSync(settings, 'utf8')) as object), tools: { approvalMode: 'default' } }, null, 2)}\n`);
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'qwen');
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const task = await w.fleet.task(id);
    const ready = 'Type your message';
    await waitForText(w.sb, task.paneId, ready, 2 * START_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting' && t.turn === 0, 'waiting at its prompt (SessionStart)', START_MS);

    await submit(w.sb, task.paneId, `hello ${HOLD_MARK}`);
    await waitFor(() => api.held() > 0, { what: 'the turn to reach the mock', timeout: REPLY_MS });
    await waitTask(w.fleet, id, (t) => t.attention === 'working' && t.turn === 1, 'working on turn 1 while the reply is held', REPLY_MS);
    api.releaseHeld();
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    const first = await waitTask(w.fleet, id, (t) => t.attention === 'waiting' && t.turn === 1, 'waiting after the reply', REPLY_MS);

    // run_shell_command: PermissionRequest, then Notification permission_prompt.
    await submit(w.sb, task.paneId, `please ${TOOL_CALL_MARK}`);
    await waitForText(w.sb, task.paneId, 'Allow execution of', REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'permission' && t.turn === 2, 'permission', REPLY_MS);
    await w.sb.tmux('send-keys', '-t', task.paneId, 'Enter');
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting' && t.turn === 2, 'waiting after the allowed call (the same turn)', REPLY_MS);

    // ask_user_question: its PermissionRequest carries the question.
    await submit(w.sb, task.paneId, `please ${QUESTION_MARK}`);
    await waitForText(w.sb, task.paneId, QUESTION_TEXT, REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting' && t.attentionMessage === QUESTION_TEXT && t.turn === 3, 'the question', REPLY_MS);
    await w.sb.tmux('send-keys', '-t', task.paneId, 'Enter');
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting' && t.attentionMessage !== QUESTION_TEXT && t.turn === 3, 'answered, the turn over', REPLY_MS);

    // /clear: a new session; once it holds a message it is the task's conversation.
    await submit(w.sb, task.paneId, '/clear');
    await waitTask(w.fleet, id, (t) => t.conversationId === null, 'the pinned conversation left behind', REPLY_MS);
    await submit(w.sb, task.paneId, 'after the clear');
    const after = await waitTask(w.fleet, id, (t) => t.conversationId !== null && t.turn === 4 && t.attention === 'waiting', 'the new conversation, its turn over', REPLY_MS);
    expect(after.conversationId).not.toBe(first.conversationId);
    proven(client, 'attention', "fleetcom's hooks (a system-defaults overlay): UserPromptSubmit working, Stop and idle_prompt waiting, permission_prompt permission, ask_user_question's PermissionRequest a question; /clear's SessionStart the new conversation");
  });
});

// opencode and kilo: fleetcom's plugin hears `permission.asked` when the user's config has a
// tool ask first (`permission.bash: "ask"`; by default they run it without asking).
describe.each([...clientsOf('opencode'), ...clientsOf('kilo')])('$agent $version (Node $node): a permission from its plugin', (client) => {
  it('a bash call its config asks about shows permission; allowed, the turn ends waiting', async () => {
    const w = await useClientWorld(client, api);
    const program = client.agent;
    const dir = join(w.sb.env.XDG_CONFIG_HOME ?? join(w.sb.home, '.config'), program);
    const file = join(dir, `${program}.json`);
    await writeFile(file, `${JSON.stringify({ ...(JSON.parse(readFileSync(file, 'utf8')) as object), permission: { bash: 'ask' } }, null, 2)}\n`);
    const r = await w.fleet.cli('run', '--cwd', w.project, '--', program);
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const task = await w.fleet.task(id);
    await waitForText(w.sb, task.paneId, 'ctrl+p commands', 2 * START_MS);

    await submit(w.sb, task.paneId, `please ${TOOL_CALL_MARK}`);
    await waitForText(w.sb, task.paneId, 'Permission required', REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'permission', 'permission from permission.asked', REPLY_MS);
    // Allow once (the first choice): the command runs, the mock's reply ends the turn.
    await w.sb.tmux('send-keys', '-t', task.paneId, 'Enter');
    await waitForText(w.sb, task.paneId, REPLY_MARK, REPLY_MS);
    await waitTask(w.fleet, id, (t) => t.attention === 'waiting', 'waiting after the allowed turn', REPLY_MS);
    proven(client, 'permission', "fleetcom's plugin: permission.asked (config `permission.bash: \"ask\"`) → permission; session.status idle → waiting");
  });
});

/** A fleet running the real claude at its fresh prompt, and the run's events file. */
async function freshClaude(client: Parameters<typeof useClientWorld>[0], prepare?: (project: string) => Promise<void>) {
  const w = await useClientWorld(client, api);
  await prepare?.(w.project);
  const r = await w.fleet.cli('run', '--cwd', w.project, '--', 'claude');
  expect(r.exitCode, r.stderr).toBe(0);
  const id = r.stdout.trim();
  const task = await w.fleet.task(id);
  const proc = await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('--session-id'));
  const events = String(proc.env.FLEETCOM_CAPTURE_FILE).replace(/\.json$/, '.events');
  const fresh = await waitTask(w.fleet, id, (t) => t.attention === 'waiting', 'waiting at the fresh prompt', START_MS);
  await waitForText(w.sb, task.paneId, '❯', START_MS);
  return { w, id, task, events, fresh };
}

/** The tool_input of the first PreToolUse in the events file ({} when there is none). */
function preToolInput(file: string): Record<string, unknown> {
  const parsed = (l: string): Record<string, unknown> | null => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      return null; // a hook still writing its line
    }
  };
  const line = readFileSync(file, 'utf8').split('\n').map(parsed).find((e) => e?.hook_event_name === 'PreToolUse');
  const input = line?.tool_input;
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
}

function hooksOf(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => String((JSON.parse(l) as { hook_event_name?: unknown }).hook_event_name));
  } catch {
    return [];
  }
}

