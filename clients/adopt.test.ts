// The real clients started by hand in a shell pane, before fleetcom knew of them, then adopted
// (`fleetcom adopt`): one turn, /clear (claude), exit, rerun into the same conversation, and
// save writes the resume command — offline, answered by the mock API.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { AgentPaneView } from '../src/control/protocol.js';
import { waitFor } from '../integration/helpers/wait-for.js';
import { clientsOf } from './helpers/clients.js';
import { claudeComposerEmpty, clientProcess, paneText, pressKeys, REPLY_MS, savedCommands, START_MS, submit, waitExited, waitForPayloads, waitForText, waitReady } from './helpers/drive.js';
import { killCodexDaemons } from './helpers/background.js';
import { proven } from './helpers/proven.js';
import { useClientWorld, type ClientWorld } from './helpers/world.js';
import { REPLY_MARK, startMockApi, type MockApi } from './mock-api.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

/** An interactive bash in the world's project, `command` typed into it: a pane fleetcom did not start. */
async function byHand(w: ClientWorld, command: string): Promise<string> {
  const made = await w.sb.ops.newWindow({ session: w.fleet.session, name: 'by-hand', cwd: w.project, argv: ['bash', '--norc', '-i'], path: w.sb.env.PATH });
  await waitForText(w.sb, made.paneId, /[#$] *$/, START_MS);
  await w.sb.tmux('send-keys', '-t', made.paneId, '-l', command);
  await pressKeys(w.sb, made.paneId, 'Enter');
  return made.paneId;
}

async function listed(w: ClientWorld, pane: string): Promise<AgentPaneView | undefined> {
  const r = await w.fleet.cli('adopt', '--json');
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { panes: AgentPaneView[] }).panes.find((p) => p.paneId === pane);
}

async function adopt(w: ClientWorld, pane: string): Promise<number> {
  const r = await w.fleet.cli('adopt', pane);
  expect(r.exitCode, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

describe.each(clientsOf('claude'))('$agent $version (Node $node) started by hand', (client) => {
  it('is adopted with its registry id, follows /clear, exits with its hint, reruns into it and saves it', async () => {
    const w = await useClientWorld(client, api);
    const pane = await byHand(w, 'claude');
    await waitReady(w.sb, pane);
    await submit(w.sb, pane, 'hello before adoption');
    await waitForText(w.sb, pane, REPLY_MARK, REPLY_MS);
    // The registry record appears a few seconds after start; the transcript at the message.
    const found = await waitFor(async () => {
      const p = await listed(w, pane);
      return p?.resumeCommand?.startsWith('claude --resume') ? p : null;
    }, { what: 'the hand-started claude listed with its conversation', timeout: START_MS });
    expect(found).toMatchObject({ agent: 'claude', command: 'claude', underShell: true, adoptable: true, idFrom: expect.stringMatching(/^claude registry /) });
    const first = found.conversationId!;

    const id = await adopt(w, pane);
    expect(await w.fleet.task(id)).toMatchObject({ harness: 'claude', conversationId: first, idSource: 'process', state: expect.stringMatching(/running|idle/) });

    // /clear: claude rewrites its registry record; the task follows once the new one holds a message.
    await submit(w.sb, pane, '/clear', claudeComposerEmpty);
    // Answered means claude took the message: a reply printed after its echo.
    await submit(w.sb, pane, 'after clear', (text) => text.lastIndexOf(REPLY_MARK) > text.lastIndexOf('after clear'));
    // Between /clear and the new conversation's first message the task names none (an empty
    // conversation cannot be resumed): wait for the new id itself, not just for the old one to go.
    const cleared = await waitFor(async () => {
      const c = (await w.fleet.task(id)).conversationId;
      return c && c !== first ? c : null;
    }, { what: 'the /clear followed to the new conversation', timeout: REPLY_MS }).catch(async (e: Error) => {
      throw new Error(`${e.message}\n--- task ---\n${JSON.stringify(await w.fleet.task(id))}\n--- pane ${pane} ---\n${await paneText(w.sb, pane).catch(() => '(gone)')}`);
    });

    // Taken once the composer is empty or claude has printed its hint on the way out.
    await submit(w.sb, pane, '/exit', (text) => claudeComposerEmpty(text) || text.includes(`claude --resume ${cleared}`));
    const exited = await waitExited(w.sb, w.fleet, await w.fleet.task(id));
    expect(exited).toMatchObject({ conversationId: cleared, idSource: 'exit-hint' });
    expect((await w.sb.tmux('display-message', '-p', '-t', pane, '#{pane_dead} #{pane_current_command}')).trim()).toBe('0 bash');
    expect(await savedCommands(w.fleet, w.project)).toEqual([`claude --resume '${cleared}'`]);

    // The shell is idle: a rerun replaces it with the resume command, into the same conversation.
    const rerun = await w.fleet.cli('rerun', String(id));
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const task = await w.fleet.task(id);
    const proc = await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('--resume'));
    expect(proc.argv).toContain(cleared);
    await waitForPayloads(proc.env.FLEETCOM_CAPTURE_FILE!, (p) => p.some((x) => x.source === 'resume' && x.session_id === cleared), 'SessionStart resume', START_MS);
    proven(client, 'adopted by hand', 'registry record of its pid (procStart checked) names it; /clear followed; hint at exit; rerun resumes it');
  });
});

describe.each(clientsOf('codex'))('$agent $version (Node $node) started by hand', (client) => {
  it('is adopted, exits with its hint, saves it and reruns into it', async () => {
    const w = await useClientWorld(client, api);
    onTestFinished(() => killCodexDaemons(w.sb.home));
    const pane = await byHand(w, 'codex');
    await waitReady(w.sb, pane);
    await submit(w.sb, pane, 'hello before adoption');
    // The first turn waits for the app-server daemon codex starts (and installs into its home).
    await waitForText(w.sb, pane, REPLY_MARK, 2 * REPLY_MS);
    const found = await waitFor(() => listed(w, pane), { what: 'the hand-started codex listed', timeout: START_MS });
    // Plain `codex` runs on its app-server daemon, which holds every connected TUI's rollout:
    // no id until the exit hint (run embedded, the TUI holds its own rollout and names it).
    expect(found).toMatchObject({ agent: 'codex', command: 'codex', underShell: true, adoptable: true });
    const daemon = found.conversationId === null;
    if (daemon) expect(found.why).toMatch(/app-server daemon/);

    const id = await adopt(w, pane);
    await pressKeys(w.sb, pane, 'C-c');
    const exited = await waitExited(w.sb, w.fleet, await w.fleet.task(id));
    expect(exited.idSource).toBe('exit-hint');
    const conversation = exited.conversationId!;
    const rollouts = readdirSync(join(w.sb.env.CODEX_HOME!, 'sessions'), { recursive: true }).map(String);
    expect(rollouts.some((f) => f.endsWith(`-${conversation}.jsonl`)), `a rollout of ${conversation}`).toBe(true);
    expect(await savedCommands(w.fleet, w.project)).toEqual([`codex resume '${conversation}'`]);

    if (daemon) {
      // The daemon keeps the conversation open after its TUI exits: a rerun would be a second
      // writer, so it is refused, naming the daemon, until the user stops it.
      const held = await w.fleet.cli('rerun', String(id));
      expect(held.exitCode).toBe(1);
      expect(held.stderr).toContain("codex's app-server daemon (`codex app-server daemon stop` releases what it holds)");
      execFileSync(join(client.binDir, 'codex'), ['app-server', 'daemon', 'stop'], { env: w.sb.env, cwd: w.project, timeout: START_MS, stdio: 'ignore' });
    }
    const rerun = await waitFor(async () => {
      const r = await w.fleet.cli('rerun', String(id));
      return r.exitCode === 0 ? r : null;
    }, { what: 'the rerun once nothing holds the conversation', timeout: START_MS });
    expect(rerun.stderr).toContain(`task ${id} rerun`);
    const task = await w.fleet.task(id);
    const proc = await clientProcess(w.sb, w.fleet, task, (argv) => argv.includes('resume'));
    expect(proc.argv).toContain(conversation);
    await waitReady(w.sb, task.paneId);
    proven(client, 'adopted by hand', `${daemon ? 'on its app-server daemon: no id until' : 'its open rollout names it;'} the exit hint; rerun resumes it`);
  });
});
