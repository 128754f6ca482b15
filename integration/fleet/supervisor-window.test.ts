// `up` inside tmux names its own window `fleetcom` and `down` gives it back its old name,
// including tmux's automatic naming when the window had it.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cliPath, runCli } from '../helpers/cli.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

/** The server's first window: a plain shell, where `up` is typed as a user would. */
async function shellPane(sb: Sandbox): Promise<string> {
  await sb.startServer();
  return (await sb.tmux('list-panes', '-t', 'main:0', '-F', '#{pane_id}')).trim();
}

/** The processes below `pid`, with their command lines. */
async function descendants(pid: number): Promise<{ pid: number; cmdline: string }[]> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).split(/\s+/).filter(Boolean).map(Number);
  const below = await Promise.all(children.map(async (child) => [
    { pid: child, cmdline: await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '') },
    ...(await descendants(child)),
  ]));
  return below.flat();
}

async function windowOf(sb: Sandbox, pane: string, format: string): Promise<string> {
  return (await sb.tmux('display-message', '-p', '-t', pane, format)).trim();
}

async function up(sb: Sandbox, pane: string): Promise<void> {
  await sb.tmux('send-keys', '-t', pane, `'${process.execPath}' '${cliPath}' up --headless`, 'Enter');
  await waitFor(async () => (await runCli(['ls', '--json'], { env: sb.env, cwd: sb.dir })).exitCode === 0, { what: 'the fleet to answer' });
}

async function down(sb: Sandbox): Promise<void> {
  expect((await runCli(['down'], { env: sb.env, cwd: sb.dir })).exitCode).toBe(0);
}

describe("the supervisor's window", () => {
  it('is named fleetcom while the fleet is up and gets its own name back on down', async () => {
    const sb = await useSandbox();
    const pane = await shellPane(sb);
    await sb.tmux('rename-window', '-t', pane, 'editor #1');
    await up(sb, pane);
    await waitFor(async () => (await windowOf(sb, pane, '#{window_name}')) === 'fleetcom', { what: 'the window named fleetcom' });
    await down(sb);
    expect(await windowOf(sb, pane, '#{window_name}')).toBe('editor #1');
    // The user's rename had turned automatic renaming off for this window; it stays off.
    expect(await windowOf(sb, pane, '#{automatic-rename}')).toBe('0');
    expect((await sb.tmux('show-options', '-w', '-t', pane)).includes('@fleetcom')).toBe(false);
  });

  it('goes back to automatic naming when tmux named it before up', async () => {
    const sb = await useSandbox();
    const pane = await shellPane(sb);
    await sb.tmux('set-option', '-g', 'automatic-rename', 'on');
    await up(sb, pane);
    await waitFor(async () => (await windowOf(sb, pane, '#{window_name}')) === 'fleetcom', { what: 'the window named fleetcom' });
    await down(sb);
    expect(await sb.tmux('show-options', '-w', '-t', pane)).not.toContain('automatic-rename');
    // tmux names it after the shell again once the supervisor has exited.
    await waitFor(async () => (await windowOf(sb, pane, '#{window_name}')) === 'sh', { what: 'the automatic name sh' });
  });

  it('keeps the first name across a supervisor that died without down', async () => {
    const sb = await useSandbox();
    const pane = await shellPane(sb);
    await sb.tmux('rename-window', '-t', pane, 'mine');
    await up(sb, pane);
    await waitFor(async () => (await windowOf(sb, pane, '#{window_name}')) === 'fleetcom', { what: 'the window named fleetcom' });
    const shell = Number(await windowOf(sb, pane, '#{pane_pid}'));
    // SIGKILL the supervisor (a process under the pane's shell running the CLI): nothing runs
    // its cleanup.
    const supervisor = await waitFor(async () => (await descendants(shell)).find((p) => p.cmdline.includes(cliPath))?.pid ?? false, {
      what: 'the supervisor process',
    });
    process.kill(supervisor, 'SIGKILL');
    await waitFor(async () => (await runCli(['ls'], { env: sb.env, cwd: sb.dir })).exitCode === 3, { what: 'the fleet to be gone' });
    expect(await windowOf(sb, pane, '#{window_name}')).toBe('fleetcom');
    await up(sb, pane);
    await down(sb);
    expect(await windowOf(sb, pane, '#{window_name}')).toBe('mine');
  });
});
