// Client commands send nothing to a control socket that is not surely the caller's: a fake
// supervisor listening where fleetcom looks must receive no byte (`run` would hand it the
// caller's whole environment, `save` would write its answer into the caller's recipe).
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

/** A listener on `<dir>/default.sock` that answers like a supervisor and records what it got. */
async function fakeSupervisor(dir: string): Promise<{ received: string[]; server: Server }> {
  const received: string[] = [];
  const server = createServer((socket) => {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received.push(chunk);
      socket.end(`${JSON.stringify({ ok: true, result: [] })}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(join(dir, 'default.sock'), resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { received, server };
}

const COMMANDS = [
  ['run', '--', 'echo', 'hi'],
  ['ls', '--json'],
  ['save', 'work'],
  ['kill', '1'],
  ['down'],
];

async function expectRefusedEverywhere(sb: Sandbox, runtimeDir: string, reason: string, received: string[]): Promise<void> {
  const env = { ...sb.env, FLEETCOM_RUNTIME_DIR: runtimeDir, SECRET_API_KEY: 'sk-not-for-strangers' };
  for (const args of COMMANDS) {
    const r = await runCli(args, { env, cwd: sb.dir });
    expect({ args, exitCode: r.exitCode, stdout: r.stdout }).toEqual({ args, exitCode: 1, stdout: '' });
    expect(r.stderr).toContain('fleetcom: refusing the control socket ');
    expect(r.stderr).toContain(reason);
    expect(r.stderr).toContain('nothing was sent');
  }
  expect(received).toEqual([]);
  expect(existsSync(join(sb.env.FLEETCOM_CONFIG_DIR!, 'sessions', 'work.json'))).toBe(false);
}

describe('the control socket a client command talks to', () => {
  it.skipIf(!asRoot)('is refused in a runtime dir another user owns, and gets nothing', async () => {
    const sb = await useSandbox();
    const dir = join(sb.dir, 'planted');
    await mkdir(dir, { mode: 0o700 });
    const { received } = await fakeSupervisor(dir);
    await chown(join(dir, 'default.sock'), NOBODY, NOBODY);
    await chown(dir, NOBODY, NOBODY);
    await expectRefusedEverywhere(sb, dir, `its directory ${dir} is owned by uid ${NOBODY}, not by you (uid 0)`, received);
  });

  it.skipIf(!asRoot)('is refused when the socket itself belongs to another user', async () => {
    const sb = await useSandbox();
    const dir = join(sb.dir, 'mine');
    await mkdir(dir, { mode: 0o700 });
    const { received } = await fakeSupervisor(dir);
    await chown(join(dir, 'default.sock'), NOBODY, NOBODY);
    await expectRefusedEverywhere(sb, dir, `it is owned by uid ${NOBODY}, not by you (uid 0)`, received);
  });

  it('is refused in a runtime dir others may write to', async () => {
    const sb = await useSandbox();
    const dir = join(sb.dir, 'open');
    await mkdir(dir);
    const { received } = await fakeSupervisor(dir);
    await chmod(dir, 0o777);
    await expectRefusedEverywhere(sb, dir, `its directory ${dir} is writable by group (mode 0777)`, received);
  });

  it('is refused behind a symlinked runtime dir, also when it is given with a trailing /', async () => {
    const sb = await useSandbox();
    const real = join(sb.dir, 'real');
    await mkdir(real, { mode: 0o700 });
    const { received } = await fakeSupervisor(real);
    const link = join(sb.dir, 'link');
    await symlink(real, link);
    await expectRefusedEverywhere(sb, link, `its directory ${link} is a symbolic link`, received);
    await expectRefusedEverywhere(sb, `${link}/`, `its directory ${link} is a symbolic link`, received);
  });

  it('is refused when it is not a socket', async () => {
    const sb = await useSandbox();
    const dir = join(sb.dir, 'plain');
    await mkdir(dir, { mode: 0o700 });
    await writeFile(join(dir, 'default.sock'), '');
    await expectRefusedEverywhere(sb, dir, 'it is not a socket', []);
  });

  it('up refuses a symlinked runtime dir given with a trailing /', async () => {
    const sb = await useSandbox();
    const real = await sb.mkdir('real-up');
    await chmod(real, 0o700);
    const link = join(sb.dir, 'link-up');
    await symlink(real, link);
    const env = { ...sb.env, FLEETCOM_RUNTIME_DIR: `${link}/` };
    const r = await runCli(['up', '--detach', '--tmux-socket', sb.socket, '--tmux-session', 'x'], { env, cwd: sb.dir });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(`fleetcom: refusing to use ${link}/: it is a symbolic link; fix it or choose another with FLEETCOM_RUNTIME_DIR\n`);
    expect(await sb.tmux('list-sessions').catch(() => 'no server')).toBe('no server');
  });

  it('a missing runtime dir still means no fleet (exit 3)', async () => {
    const sb = await useSandbox();
    const r = await runCli(['ls'], { env: sb.env, cwd: sb.dir });
    expect(r).toMatchObject({ exitCode: 3, stderr: 'fleetcom: no fleet is running (start one with: fleetcom up)\n' });
  });
});
