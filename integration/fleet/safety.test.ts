// Unsafe runtime dirs are refused before anything is written, and left exactly as they were.
import { chmod, lstat, mkdir, readdir, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

describe('runtime dir safety', () => {
  it('refuses a symlinked runtime dir and leaves it alone', async () => {
    const sb = await useSandbox();
    const target = await sb.mkdir('elsewhere');
    const link = join(sb.dir, 'runtime-link');
    await symlink(target, link);
    const env = { ...sb.env, FLEETCOM_RUNTIME_DIR: link };
    const r = await runCli(['up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'x'], { env, cwd: sb.dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`fleetcom: refusing to use ${link}: it is a symbolic link; fix it or choose another with FLEETCOM_RUNTIME_DIR\n`);
    expect(await readlink(link)).toBe(target);
    expect(await readdir(target)).toEqual([]);
    expect(await sb.tmux('list-sessions').catch(() => 'no server')).toBe('no server');
  });

  it('refuses a group-writable runtime dir without changing its mode', async () => {
    const sb = await useSandbox();
    const dir = join(sb.dir, 'shared-runtime');
    await mkdir(dir);
    await chmod(dir, 0o775);
    const env = { ...sb.env, FLEETCOM_RUNTIME_DIR: dir };
    const r = await runCli(['up', '--detach', '--tmux-socket', sb.socket], { env, cwd: sb.dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`refusing to use ${dir}: it is writable by group`);
    expect((await lstat(dir)).mode & 0o777).toBe(0o775);
    expect(await readdir(dir)).toEqual([]);
  });

  it('creates a missing runtime dir with mode 0700', async () => {
    const sb = await useSandbox();
    const r = await runCli(['up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'made'], { env: sb.env, cwd: sb.dir });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'made\n' });
    expect((await lstat(sb.env.FLEETCOM_RUNTIME_DIR!)).mode & 0o777).toBe(0o700);
    expect((await lstat(join(sb.env.FLEETCOM_RUNTIME_DIR!, 'default.sock'))).mode & 0o777).toBe(0o600);
    expect((await runCli(['down'], { env: sb.env, cwd: sb.dir })).exitCode).toBe(0);
  });
});
