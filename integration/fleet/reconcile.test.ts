// What hooks can miss, reconciliation catches; what users do to windows outside fleetcom,
// the fleet follows.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { startFleet } from '../helpers/fleet.js';
import { waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

describe('reconciliation', () => {
  it('notices an exit whose pane-died hook never ran', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sh', '-c', 'read line; exit 7');
    const task = await fleet.task(id);
    await sb.tmux('set-hook', '-u', '-w', '-t', task.windowId, 'pane-died');
    await sb.tmux('send-keys', '-t', task.paneId, 'go', 'Enter');
    const exited = await fleet.waitTask(id, (t) => t.state === 'exited', 'exited without its hook');
    expect(exited.exitStatus).toBe(7);
  });

  it('keeps a task whose window the user closed as exited until rm, and logs it', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('sleep', '600');
    const task = await fleet.task(id);
    await sb.tmux('kill-window', '-t', task.windowId);
    await fleet.waitTask(id, (t) => t.state === 'exited', 'exited once its window is gone');
    await waitForText(sb, fleet.supervisorPane, `task ${id}: its window was closed outside fleetcom; kept as exited`);
    expect((await fleet.cli('rm', id)).exitCode).toBe(0);
    expect(await fleet.ls()).toEqual([]);
  });

  it('deletes the previous run\'s capture file once a rerun has spawned', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('claude');
    const task = await fleet.task(id);
    await waitForText(sb, task.paneId, '? for shortcuts');
    const first = (await sb.agentStarts())[0]?.env.FLEETCOM_CAPTURE_FILE;
    await waitFor(() => existsSync(first!), { what: 'the first capture' });
    await sb.tmux('send-keys', '-t', task.paneId, '/exit', 'Enter');
    await fleet.waitTask(id, (t) => t.state === 'exited', 'exited');
    expect((await fleet.cli('rerun', id)).exitCode).toBe(0);
    expect(existsSync(first!)).toBe(false);
    const starts = await waitFor(async () => {
      const all = await sb.agentStarts();
      return all.length === 2 && all;
    }, { what: 'the rerun' });
    expect(starts[1]?.env.FLEETCOM_CAPTURE_FILE).toBe(first!.replace(/-0\.json$/, '-1.json'));
  });

  it('adopts an unknown tagged window as an unknown task, with a warning', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const socket = `${sb.env.FLEETCOM_RUNTIME_DIR}/default.sock`;
    expect((await fleet.cli('down')).exitCode).toBe(0);
    const session = (await sb.tmux('new-session', '-d', '-P', '-F', '#{session_id}', '-s', 'again', 'sleep', '600')).trim();
    await sb.tmux('new-window', '-d', '-t', `${session}:`, '-n', 'stray', 'sleep', '600');
    await sb.tmux('set-option', '-w', '-t', `${session}:1`, '@fleetcom-task', '5');
    await sb.tmux('set-option', '-w', '-t', `${session}:1`, '@fleetcom-socket', socket);
    const pane = (await sb.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${session}:`, '--', process.execPath, cliPath, 'up', '--headless')).trim();
    await sb.tmux('set-option', '-w', '-t', pane, 'remain-on-exit', 'on');
    await waitFor(async () => (await runCli(['ls', '--json'], { env: sb.env, cwd: sb.dir })).exitCode === 0, { what: 'the new fleet' });
    const tasks = JSON.parse((await runCli(['ls', '--json'], { env: sb.env, cwd: sb.dir })).stdout);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ id: 5, harness: null, command: null, name: 'stray' });
    await waitForText(sb, pane, 'carries @fleetcom-task 5 but neither state.json nor the window holds its command');
    expect(await runCli(['run', '--', 'true'], { env: sb.env, cwd: sb.dir })).toMatchObject({ stdout: '6\n' });
  });

  it('down removes the capture namespace; an outside up for a running fleet names its session', async () => {
    const sb = await useSandbox();
    const up = await runCli(['up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'agents'], { env: sb.env, cwd: sb.dir });
    expect(up).toMatchObject({ exitCode: 0, stdout: 'agents\n' });
    const again = await runCli(['up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'agents'], { env: sb.env, cwd: sb.dir });
    expect(again).toMatchObject({ exitCode: 0, stdout: 'agents\n' });
    const other = await runCli(['up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'other'], { env: sb.env, cwd: sb.dir });
    expect(other.exitCode).toBe(1);
    expect(other.stderr).toContain("a fleet is already running in tmux session 'agents'");
    await runCli(['run', '--', 'grok'], { env: sb.env, cwd: sb.dir });
    const claude = await runCli(['run', '--', 'claude'], { env: sb.env, cwd: sb.dir });
    expect(claude.exitCode).toBe(0);
    const capture = await waitFor(async () => (await sb.agentStarts()).find((s) => s.agent === 'claude')?.env.FLEETCOM_CAPTURE_FILE, { what: 'claude to start' });
    expect(existsSync(dirname(capture!))).toBe(true);
    expect((await runCli(['down'], { env: sb.env, cwd: sb.dir })).exitCode).toBe(0);
    expect(existsSync(dirname(capture!))).toBe(false);
  });
});
