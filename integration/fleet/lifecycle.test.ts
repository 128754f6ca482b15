// Task lifecycle through the built CLI: spawning environment, rerun refusal, kill, rm, down.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

describe('task lifecycle', () => {
  it("gives a task the caller's PATH and a variable set only in the caller", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const bin = await sb.mkdir('caller-bin');
    const env = { ...sb.env, PATH: `${bin}:${sb.env.PATH}`, ONLY_IN_CALLER: 'x y$z' };
    const out = join(sb.dir, 'seen.txt');
    const r = await fleet.cliIn(sb.dir, env, 'run', '--', 'sh', '-c', `printf '%s\\n%s\\n' "$PATH" "$ONLY_IN_CALLER" > ${out}`);
    expect(r.exitCode).toBe(0);
    await fleet.waitTask(r.stdout.trim(), (t) => t.state === 'exited', 'exited');
    const [path, only] = (await readFile(out, 'utf8')).split('\n');
    expect(path?.split(':')[0]).toBe(bin);
    expect(only).toBe('x y$z');
  });

  it('joins several words as a shell would need them, and prints only the id', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    // The task prints its words, then waits for a line: tmux drops what a pane printed but it
    // had not read yet when the process exits, so the text is read before the task ends.
    const r = await fleet.cli('run', '--', 'sh', '-c', 'echo "$1 $2"; read line', 'sh', 'a;b', "it's");
    expect(r.stdout).toMatch(/^\d+\n$/);
    const running = await fleet.task(r.stdout.trim());
    expect(running.command).toBe(`sh -c 'echo "$1 $2"; read line' sh 'a;b' 'it'\\''s'`);
    await waitForText(sb, running.paneId, "a;b it's");
    await typeLine(sb, running.paneId, 'done');
    await fleet.waitTask(running.id, (t) => t.state === 'exited', 'exited');
  });

  it('refuses a missing cwd and leaves no half-made task', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const r = await fleet.cli('run', '--cwd', join(sb.dir, 'nope'), '--', 'true');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`${join(sb.dir, 'nope')} does not exist`);
    expect(await fleet.ls()).toEqual([]);
  });

  it('refuses to rerun a running task, and names unknown tasks', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sleep', '600');
    const refused = await fleet.cli('rerun', id);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('still running');
    expect((await fleet.task(id)).run).toBe(0);
    const unknown = await fleet.cli('kill', '99');
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('no task 99');
  });

  it('kills a task that ignores SIGTERM with SIGKILL, and replies once it is gone', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    // The exec'd sleep keeps SIGTERM ignored, so only the SIGKILL escalation can end it.
    const id = await fleet.run('sh', '-c', "trap '' TERM HUP; echo ready; exec sleep 600");
    const task = await fleet.task(id);
    await waitForText(sb, task.paneId, 'ready');
    const r = await fleet.cli('kill', id);
    expect(r.exitCode).toBe(0);
    const killed = await fleet.task(id);
    expect(killed).toMatchObject({ state: 'exited', killed: true, exitStatus: null });
  });

  it('rm kills a running task, closes its window and deletes its capture file', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('claude');
    const task = await fleet.task(id);
    await waitForText(sb, task.paneId, '? for shortcuts');
    const capture = (await sb.agentStarts())[0]?.env.FLEETCOM_CAPTURE_FILE;
    expect(capture).toBeTruthy();
    await waitFor(() => readFile(capture!, 'utf8'), { what: 'the SessionStart capture' });
    expect((await fleet.cli('rm', id)).exitCode).toBe(0);
    expect(await fleet.ls()).toEqual([]);
    expect(await sb.tmux('list-windows', '-a', '-F', '#{window_id}')).not.toContain(task.windowId);
    await expect(readFile(capture!, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('down closes every window, restores the key, and later commands exit 3', async () => {
    const sb = await useSandbox();
    await sb.startServer();
    await sb.tmux('bind-key', '-T', 'prefix', 'r', 'display-message', 'mine');
    const fleet = await startFleet(sb);
    const binding = await sb.tmux('list-keys', '-T', 'prefix', 'r');
    expect(binding).toContain('@fleetcom-task');
    expect(binding).not.toContain('--from-key'); // the rerun reads no such flag
    const ids = [await fleet.run('sleep', '600'), await fleet.run('claude')];
    const windows = await Promise.all(ids.map(async (id) => (await fleet.task(id)).windowId));
    const down = await fleet.cli('down');
    expect(down.exitCode).toBe(0);
    const left = await sb.tmux('list-windows', '-a', '-F', '#{window_id}');
    for (const w of windows) expect(left).not.toContain(w);
    expect(await sb.tmux('list-keys', '-T', 'prefix', 'r')).toContain('display-message mine');
    const after = await fleet.cli('ls');
    expect(after).toMatchObject({ exitCode: 3, stdout: '' });
    expect(after.stderr).toBe('fleetcom: no fleet is running (start one with: fleetcom up)\n');
    await expect(readFile(join(sb.env.FLEETCOM_RUNTIME_DIR!, 'state.json'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a second up for the same runtime dir, naming the tmux session', async () => {
    const sb = await useSandbox();
    await startFleet(sb, { name: 'first' });
    const r = await startFleetExpectingFailure(sb);
    expect(r).toContain("a fleet is already running in tmux session 'first'");
  });
});

async function startFleetExpectingFailure(sb: Awaited<ReturnType<typeof useSandbox>>): Promise<string> {
  const { cliPath } = await import('../helpers/cli.js');
  const pane = (await sb.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'first:', '--',
    'sh', '-c', `'${process.execPath}' '${cliPath}' up --headless; echo "exit=$?"; sleep 600`)).trim();
  return waitForText(sb, pane, /exit=1/);
}

describe('spawn edge cases', () => {
  it('shows a label with # literally in the window name', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const r = await fleet.cli('run', '--name', 'a#[fg=red]b #{pane_id}', '--', 'sleep', '600');
    const task = await fleet.task(r.stdout.trim());
    expect(task.name).toBe('a#[fg=red]b #{pane_id}');
    const name = (await sb.tmux('display-message', '-p', '-t', task.windowId, '#{window_name}')).trim();
    expect(name).toBe('✻ a##[fg=red]b ##{pane_id}');
  });

  it('refuses an environment too big for tmux, naming the largest variable, and spawns nothing', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const env = { ...sb.env, HUGE_VARIABLE: 'x'.repeat(20_000) };
    const r = await fleet.cliIn(sb.dir, env, 'run', '--', 'true');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('HUGE_VARIABLE (20014 bytes)');
    expect(await fleet.ls()).toEqual([]);
  });

  it('clears the history on rerun, so an earlier run\'s hint can never be scraped again', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    // The pause lets tmux read the text before the exit (it drops output read too late).
    const id = await fleet.run('sh', '-c', 'echo Resume this session with:; echo claude --resume c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d; sleep 0.5');
    const task = await fleet.waitTask(id, (t) => t.state === 'exited', 'exited');
    await waitForText(sb, task.paneId, 'claude --resume');
    expect((await fleet.cli('rerun', id)).exitCode).toBe(0);
    await fleet.waitTask(id, (t) => t.state === 'exited' && t.run === 1, 'rerun exited');
    const text = await sb.ops.capturePane(task.paneId, { history: true });
    expect(text.match(/claude --resume/g)).toHaveLength(1);
  });
});
