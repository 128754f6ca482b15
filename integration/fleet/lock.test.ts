// The runtime dir's lock against the built CLI: many `up` racing for one stale lock, and a lock
// whose pid now belongs to an unrelated live process.
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

/** A pid that was just used and is free again (its process has exited and been reaped). */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  const pid = child.pid!;
  await new Promise((resolve) => child.on('exit', resolve));
  return pid;
}

async function staleLock(sb: Sandbox, text: string): Promise<string> {
  const dir = sb.env.FLEETCOM_RUNTIME_DIR!;
  await mkdir(dir, { mode: 0o700 });
  await writeFile(join(dir, 'lock'), text, { mode: 0o600 });
  return dir;
}

describe('the runtime dir lock', () => {
  it('lets exactly one of 20 simultaneous up take over a stale lock; every other says a fleet is already running', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer({ name: 'fleet' });
    const pane = (await sb.tmux('list-panes', '-t', session, '-F', '#{pane_id}')).trim();
    const server = (await sb.tmux('display-message', '-p', '#{pid}')).trim();
    // Written as a crashed supervisor of the previous version left it: only the pid.
    const dir = await staleLock(sb, `${await deadPid()}\n`);
    const env = { ...sb.env, TMUX: `${sb.socket},${server},0`, TMUX_PANE: pane };
    const ups = Array.from({ length: 20 }, () =>
      execa(process.execPath, [cliPath, 'up', '--headless'], { env, extendEnv: false, cwd: sb.dir, reject: false, input: '' }));
    try {
      const exited: Array<{ exitCode?: number; stderr: unknown }> = [];
      for (const up of ups) void up.then((r) => exited.push(r));
      await waitFor(() => exited.length >= 19, { what: '19 of the 20 up to exit', timeout: 90_000 });
      expect(exited).toHaveLength(19);
      for (const r of exited) {
        expect(r.exitCode).toBe(1);
        expect(String(r.stderr)).toMatch(/^fleetcom: a fleet is already running/);
      }
      const lock = await readFile(join(dir, 'lock'), 'utf8');
      const winner = ups.find((u) => u.exitCode === null && u.pid !== undefined && lock.startsWith(`${u.pid}\n`));
      expect(winner, `the lock names a running up:\n${lock}`).toBeDefined();
      const cli = (...args: string[]) => execa(process.execPath, [cliPath, ...args], { env: sb.env, extendEnv: false, cwd: sb.dir, reject: false });
      expect((await cli('ls', '--json')).exitCode).toBe(0);
      expect((await cli('down')).exitCode).toBe(0);
      expect((await winner!).exitCode).toBe(0);
    } finally {
      for (const up of ups) up.kill('SIGKILL');
      await Promise.all(ups);
    }
  });

  it('takes over a lock whose pid is now an unrelated live process, and leaves that process alone', async () => {
    const sb = await useSandbox();
    const other = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      // The pid is alive, but its start time is not the one the lock recorded: not our supervisor.
      await staleLock(sb, `${other.pid}\nstart 1\ncommand node /old/cli.js up\n`);
      const fleet = await startFleet(sb);
      expect(await fleet.ls()).toEqual([]);
      const lock = await readFile(join(sb.env.FLEETCOM_RUNTIME_DIR!, 'lock'), 'utf8');
      expect(lock).not.toMatch(new RegExp(`^${other.pid}\\n`));
      expect(lock).toMatch(/^\d+\nstart \d+\ncommand .*cli\.c?js up --headless\n/);
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
    } finally {
      other.kill('SIGKILL');
    }
  });
});
