// The runtime dir removed under a live supervisor (systemd removes /run/user/<uid> at the last
// logout while tmux lingers; tmp cleaners do the same): the supervisor makes its dir, lock,
// socket and capture namespace again within its reconciliation, with the checks of its start,
// and a second `up` on the same tmux server never adopts its tasks.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, symlink, chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { processAlive, useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { supervisorBelowShell, supervisorPid } from '../helpers/supervisor.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * A second `up --headless` from a new window of the fleet's session (run here with that pane's
 * TMUX and TMUX_PANE, so its exit is seen at once: tmux 3.3a can miss a pane process's exit).
 */
async function secondUp(sb: Sandbox, fleet: Fleet): Promise<{ exitCode: number | undefined; stderr: string }> {
  const pane = (await sb.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${fleet.session}:`, 'sh')).trim();
  const server = (await sb.tmux('display-message', '-p', '#{pid}')).trim();
  const env = { ...sb.env, TMUX: `${sb.socket},${server},0`, TMUX_PANE: pane };
  const r = await execa(process.execPath, [cliPath, 'up', '--headless'], { env, extendEnv: false, cwd: sb.dir, reject: false, input: '', timeout: 60_000 });
  return { exitCode: r.exitCode, stderr: String(r.stderr) };
}

/** The fleet answers `ls --json` again; how long it took from `since`. */
async function answersAgain(fleet: Fleet, since: number): Promise<number> {
  await waitFor(async () => (await fleet.cli('ls', '--json')).exitCode === 0, { what: 'the fleet to answer again', timeout: 30_000 });
  return Date.now() - since;
}

/** A process this test stopped: continued, then killed, whatever the test's outcome. */
function stopForGood(pid: number): void {
  for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

function namespaceOf(runtimeDir: string): string {
  return JSON.parse(readFileSync(join(runtimeDir, 'state.json'), 'utf8')).namespace as string;
}

describe('a runtime dir removed under a live supervisor', () => {
  it('is made again within the reconciliation: ls works, a capture lands, and a second up exits 1 naming the owner', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const runtime = sb.env.FLEETCOM_RUNTIME_DIR!;
    const pid = await supervisorPid(sb, fleet.supervisorPane);
    const task = await fleet.task(await fleet.run('codex'));
    await waitForText(sb, task.paneId, '›');
    const namespace = namespaceOf(runtime);

    const removed = Date.now();
    await rm(runtime, { recursive: true, force: true });
    // Within the reconciliation (2 s), with slack for a loaded machine.
    expect(await answersAgain(fleet, removed)).toBeLessThan(15_000);
    await waitFor(() => existsSync(join(namespace, 'codex-notify.sh')) && existsSync(join(runtime, 'lock')), { what: 'the namespace and lock back' });
    expect(await readdir(namespace)).toEqual(expect.arrayContaining(['claude-settings.json', 'codex-notify.sh']));
    expect(readFileSync(join(runtime, 'lock'), 'utf8')).toMatch(new RegExp(`^${pid}\\n`));

    // The running codex's notifier is the restored script; its capture lands in the namespace.
    await typeLine(sb, task.paneId, 'after the wipe');
    await waitForText(sb, task.paneId, 'fake reply to: after the wipe');
    const captured = await fleet.waitTask(task.id, (t) => t.idSource === 'capture', 'the capture after the wipe');
    expect(captured.conversationId).toMatch(/^[0-9a-f-]{36}$/);

    const second = await secondUp(sb, fleet);
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`supervisor (is pid |\\(pid )${pid}\\b`));
    expect(second.stderr).toContain(join(runtime, 'default.sock'));
    expect((await fleet.ls()).map((t) => t.id)).toEqual([task.id]);
    expect(await fleet.log()).not.toContain('adopted');
    expect(readFileSync(join(runtime, 'lock'), 'utf8')).toMatch(new RegExp(`^${pid}\\n`));
  });

  it('while the supervisor cannot act (stopped), a second up learns its owner from the tmux server, adopts nothing and releases the lock', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb, { underShell: true });
    const runtime = sb.env.FLEETCOM_RUNTIME_DIR!;
    const pid = await supervisorBelowShell(sb, fleet.supervisorPane);
    const task = await fleet.task(await fleet.run('sleep', '600'));
    process.kill(pid, 'SIGSTOP');
    onTestFinished(() => stopForGood(pid));
    try {
      await rm(runtime, { recursive: true, force: true });
      const second = await secondUp(sb, fleet);
      expect(second.exitCode).toBe(1);
      expect(second.stderr).toContain(`a fleet is already running on this tmux server: its supervisor (pid ${pid}`);
      expect(second.stderr).toContain(`owns the tasks of the control socket ${join(runtime, 'default.sock')}, so none was adopted`);
      expect(second.stderr).not.toContain('adopted 1 task');
      expect(existsSync(join(runtime, 'lock'))).toBe(false);
      expect(existsSync(join(runtime, 'default.sock'))).toBe(false);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await answersAgain(fleet, Date.now());
    expect((await fleet.ls()).map((t) => [t.id, t.state === 'exited'])).toEqual([[task.id, false]]); // running or idle
    expect(readFileSync(join(runtime, 'lock'), 'utf8')).toMatch(new RegExp(`^${pid}\\n`));
  });

  it('made again by someone else (a symlink, mode 0777) is refused and said once; the fleet runs on and comes back once the dir is fixed', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const runtime = sb.env.FLEETCOM_RUNTIME_DIR!;
    const pid = await supervisorPid(sb, fleet.supervisorPane);
    const task = await fleet.task(await fleet.run('sleep', '600'));
    const elsewhere = await sb.mkdir('elsewhere');

    await rm(runtime, { recursive: true, force: true });
    await symlink(elsewhere, runtime);
    await waitForText(sb, fleet.supervisorPane, `refusing to use the runtime dir ${runtime}: it is a symbolic link; the fleet runs on`);
    const refused = await fleet.cli('ls');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('is a symbolic link');

    await rm(runtime);
    await mkdir(runtime);
    await chmod(runtime, 0o777);
    await waitForText(sb, fleet.supervisorPane, `refusing to use the runtime dir ${runtime}: it is writable by group (mode 0777)`);
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readdir(runtime)).toEqual([]);
    expect(processAlive(pid)).toBe(true);
    expect((await sb.tmux('display-message', '-p', '-t', task.paneId, '#{pane_dead}')).trim()).toBe('0');
    // Said once, not at every check.
    const log = await fleet.log();
    expect(log.split('writable by group').length - 1).toBe(1);

    await rm(runtime, { recursive: true });
    await answersAgain(fleet, Date.now());
    expect((await fleet.ls()).map((t) => [t.id, t.state === 'exited'])).toEqual([[task.id, false]]); // running or idle
    await waitForText(sb, fleet.supervisorPane, `${runtime} is usable again`);
  });
});
