// What adoption needs lives on each task window (`@fleetcom-*` options), so a lost or damaged
// state.json loses nothing; a tagged window with no record at all is an unknown task that is
// never run or saved by its name.
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { killSupervisor, upAgain } from '../helpers/supervisor.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { talk } from '../sessions/kit.js';

describe('adoption without state.json', () => {
  it.each([
    ['truncated', (text: string) => text.slice(0, Math.floor(text.length / 2))],
    ['not a state file', () => '{"version": 1, "tasks": "none"}\n'],
    ['missing', null],
  ] as const)('restores every task from its window when state.json is %s, and keeps a damaged file aside', async (_, damage) => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const work = await sb.mkdir('home', 'work', 'a b');
    const claude = await fleet.task(await fleet.run('claude'));
    const codex = await fleet.task(await fleet.run('codex'));
    const named = await fleet.cliIn(work, sb.env, 'run', '--name', '#web; x', '--group', 'servers', '--', 'sleep', '600');
    const web = await fleet.task(named.stdout.trim());
    await talk(sb, claude, 'claude', 'before the crash');
    const claudeId = (await fleet.waitTask(claude.id, (t) => t.idSource === 'capture', 'claude captured')).conversationId;
    await talk(sb, codex, 'codex', 'codex before the crash');
    await typeLine(sb, codex.paneId, '/exit');
    const codexId = (await fleet.waitTask(codex.id, (t) => t.idSource === 'exit-hint', 'codex exited')).conversationId;
    await fleet.cli('tag', String(web.id));
    const before = await fleet.ls();

    await killSupervisor(sb, fleet);
    const state = join(sb.env.FLEETCOM_RUNTIME_DIR!, 'state.json');
    const original = await readFile(state, 'utf8');
    const damaged = damage === null ? null : damage(original);
    if (damaged === null) await rm(state);
    else await writeFile(state, damaged);

    const pane = await upAgain(sb, fleet);
    const after = await fleet.ls();
    const keep = (t: (typeof before)[number]) => ({
      id: t.id, run: t.run, cwd: t.cwd, command: t.command, name: t.name, group: t.group, tagged: t.tagged,
      harness: t.harness, conversationId: t.conversationId, state: t.state === 'idle' ? 'running' : t.state,
    });
    expect(after.map(keep)).toEqual(before.map(keep));
    expect(after.find((t) => t.id === claude.id)?.conversationId).toBe(claudeId);
    expect(after.find((t) => t.id === codex.id)).toMatchObject({ conversationId: codexId, idSource: 'exit-hint' });
    expect(after.find((t) => t.id === web.id)).toMatchObject({ cwd: work, name: '#web; x', group: 'servers', tagged: true });

    const kept = (await readdir(sb.env.FLEETCOM_RUNTIME_DIR!)).filter((n) => n.startsWith('state.json.corrupt-'));
    if (damaged === null) {
      expect(kept).toEqual([]);
    } else {
      expect(kept).toHaveLength(1);
      expect(await readFile(join(sb.env.FLEETCOM_RUNTIME_DIR!, kept[0]!), 'utf8')).toBe(damaged);
      await waitForText(sb, pane, `kept it as ${join(sb.env.FLEETCOM_RUNTIME_DIR!, kept[0]!)}`);
    }
    // A rerun resumes the conversation, in the task's own directory.
    expect((await fleet.cli('rerun', String(codex.id))).exitCode).toBe(0);
    expect((await fleet.task(codex.id)).command).toBe(`codex resume '${codexId}'`);
    const next = await fleet.run('true');
    expect(Number(next)).toBe(web.id + 1);
  });

  it("watches the dead supervisor's capture folder when state.json is lost, and removes it on down", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    // codex's notifier writes its capture file after each turn: the first one comes after the adoption.
    const codex = await fleet.task(await fleet.run('codex'));
    const capture = await waitFor(async () => (await sb.agentStarts())[0]?.env.FLEETCOM_CAPTURE_FILE ?? false, { what: 'codex to start' });
    const namespace = dirname(capture);
    await killSupervisor(sb, fleet);
    await rm(join(sb.env.FLEETCOM_RUNTIME_DIR!, 'state.json'));
    const pane = await upAgain(sb, fleet);

    await talk(sb, codex, 'codex', 'after the adoption');
    const id = (await fleet.waitTask(codex.id, (t) => t.idSource === 'capture', 'codex captured')).conversationId;
    await waitForText(sb, pane, `task ${codex.id} captured conversation ${id}`);
    expect((await fleet.cli('down')).exitCode).toBe(0);
    expect(existsSync(namespace)).toBe(false);
  });

  it.each([
    ['made, its record (too big to ride along) not set yet', async (window: string, sb: Sandbox) => void (await sb.tmux('set-option', '-wu', '-t', window, '@fleetcom-spec'))],
    ["rerun: its new run set, not yet that run's record", async (window: string, sb: Sandbox) => void (await sb.tmux('set-option', '-w', '-t', window, '@fleetcom-run', '1'))],
  ])('never trusts a window left between two tmux calls by a crash (%s) when state.json is lost', async (_, crash) => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const marker = join(sb.dir, 'ran');
    const task = await fleet.task(await fleet.run('sh', '-c', `sleep 600 # ${'x'.repeat(2_100)}; touch ${marker}`));
    // The record of the first run follows the window in a second tmux call.
    await waitFor(async () => (await sb.tmux('show-options', '-wqv', '-t', task.windowId, '@fleetcom-spec')).trim() !== '', { what: "the window's record" });
    await killSupervisor(sb, fleet);
    await crash(task.windowId, sb);
    await rm(join(sb.env.FLEETCOM_RUNTIME_DIR!, 'state.json'));
    const pane = await upAgain(sb, fleet);
    expect(await fleet.task(task.id)).toMatchObject({ command: null, harness: null, resumeCommand: null });
    await waitForText(sb, pane, 'adopted as an unknown task');
    expect((await fleet.cli('save', '--stdout')).stdout).not.toContain('sleep 600');
  });

  it('adopts a window that carries no record as unknown: never rerun, never saved, and says so', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const socket = join(sb.env.FLEETCOM_RUNTIME_DIR!, 'default.sock');
    const marker = join(sb.dir, 'ran');
    // A window named like a command: running its name would create the marker file.
    const window = (await sb.tmux('new-window', '-d', '-P', '-F', '#{window_id}', '-t', `${fleet.session}:`, '-n', `touch ${marker}`, 'sleep', '600')).trim();
    await sb.tmux('set-option', '-w', '-t', window, 'remain-on-exit', 'on');
    await sb.tmux('set-option', '-w', '-t', window, '@fleetcom-task', '5');
    await sb.tmux('set-option', '-w', '-t', window, '@fleetcom-socket', socket);
    // A forged spec that is not what fleetcom writes is no record either.
    await sb.tmux('set-option', '-w', '-t', window, '@fleetcom-spec', 'eyJjb21tYW5kIjoidG91Y2ggL3RtcC94In0');
    await killSupervisor(sb, fleet);
    const pane = await upAgain(sb, fleet);

    const [task] = await fleet.ls();
    expect(task).toMatchObject({ id: 5, command: null, name: `touch ${marker}`, harness: null, conversationId: null, resumeCommand: null });
    await waitForText(sb, pane, 'adopted as an unknown task');
    expect((await fleet.cli('kill', '5')).exitCode).toBe(0);
    expect((await fleet.task(5)).state).toBe('exited');
    const rerun = await fleet.cli('rerun', '5');
    expect(rerun.exitCode).toBe(1);
    expect(rerun.stderr).toContain('task 5 was adopted without a record of its command; it cannot be rerun');
    const saved = await fleet.cli('save', '--stdout');
    expect(saved.stdout).not.toContain('touch');
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
    expect((await fleet.cli('rm', '5')).exitCode).toBe(0);
    expect(await fleet.ls()).toEqual([]);
  });
});
