// Options, hooks, key bindings, environment and sessions against a real private tmux server.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TmuxError } from '../../src/tmux/errors.js';
import { quoteForTest } from './quote.js';
import { waitForDeath } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

describe('options', () => {
  it('sets and unsets window, session and server options, values taken literally', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const w = await sb.ops.newWindow({ session, name: 'w', cwd: sb.dir, argv: ['sleep', '1000'] });
    await sb.ops.setWindowOption(w.windowId, '@fleetcom-task', '#{pane_id} a;');
    expect(await sb.tmux('show-options', '-w', '-v', '-t', w.windowId, '@fleetcom-task')).toBe('#{pane_id} a;');
    await sb.ops.unsetWindowOption(w.windowId, '@fleetcom-task');
    expect(await sb.ops.listPanes(session).then((r) => r[1]?.fleetcomTask)).toBeNull();

    await sb.ops.setSessionOption(session, 'history-limit', '5000');
    expect(await sb.tmux('show-options', '-v', '-t', session, 'history-limit')).toBe('5000');

    expect(await sb.ops.showServerOption('@fleetcom-prev-r')).toBeNull();
    await sb.ops.setServerOption('@fleetcom-prev-r', '');
    expect(await sb.ops.showServerOption('@fleetcom-prev-r')).toBe('');
    await sb.ops.setServerOption('@fleetcom-prev-r', 'if-shell -F "#{x}" { a } { b }');
    expect(await sb.ops.showServerOption('@fleetcom-prev-r')).toBe('if-shell -F "#{x}" { a } { b }');
    await sb.ops.unsetServerOption('@fleetcom-prev-r');
    expect(await sb.ops.showServerOption('@fleetcom-prev-r')).toBeNull();
  });
});

describe('hooks', () => {
  const hookCommand = (log: string) => `run-shell -b ${quoteForTest(`echo "#{hook_pane} #{pane_dead_status}" >> '${log}'`)}`;
  const readLog = (log: string) =>
    waitFor(() => readFile(log, 'utf8').then((t) => (t.endsWith('\n') ? t : undefined), () => undefined), {
      what: `the pane-died hook to write ${log}`,
    });

  it('a pane-died window hook given to newWindow fires even for a command that exits at once', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const log = join(sb.dir, 'died.log');
    const w = await sb.ops.newWindow({
      session, name: 'w', cwd: sb.dir, argv: ['false'],
      windowOptions: { 'remain-on-exit': 'on' }, windowHooks: { 'pane-died': hookCommand(log) },
    });
    // pane-died fires once tmux has reaped the process; polling listPanes makes sure it does
    // (tmux 3.3a misses a SIGCHLD now and then, see reapChildren).
    await waitForDeath(sb, session, w.paneId);
    expect((await readLog(log)).trim()).toBe(`${w.paneId} 1`);
  });

  it('setWindowHook / unsetWindowHook install and remove a hook on an existing window', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const log = join(sb.dir, 'died.log');
    const w = await sb.ops.newWindow({
      session, name: 'w', cwd: sb.dir, argv: ['sh', '-c', 'read x; exit 4'], windowOptions: { 'remain-on-exit': 'on' },
    });
    await sb.ops.setWindowHook(w.windowId, 'pane-died', hookCommand(log));
    expect(await sb.tmux('show-hooks', '-w', '-t', w.windowId)).toContain('pane-died');
    await sb.tmux('send-keys', '-t', w.paneId, 'Enter');
    await waitForDeath(sb, session, w.paneId);
    expect((await readLog(log)).trim()).toBe(`${w.paneId} 4`);
    await sb.ops.unsetWindowHook(w.windowId, 'pane-died');
    expect(await sb.tmux('show-hooks', '-w', '-t', w.windowId)).not.toContain('pane-died');
  });

  it('tmux 3.3a: a pane-died hook set on the session lands on its current window, not new ones', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    await sb.ops.setHook(session, 'pane-died', 'display-message x');
    expect(await sb.tmux('show-hooks', '-t', session)).not.toContain('pane-died');
    expect(await sb.tmux('show-hooks', '-w', '-t', `${session}:0`)).toContain('pane-died');
    const w = await sb.ops.newWindow({ session, name: 'w', cwd: sb.dir, argv: ['sleep', '1000'] });
    expect(await sb.tmux('show-hooks', '-w', '-t', w.windowId)).not.toContain('pane-died');
  });

  it('setHook / unsetHook manage a session hook (after-new-window fires for the new window)', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const log = join(sb.dir, 'new.log');
    await sb.ops.setHook(session, 'after-new-window', `run-shell -b ${quoteForTest(`echo "#{window_id}" >> '${log}'`)}`);
    expect(await sb.tmux('show-hooks', '-t', session)).toContain('after-new-window');
    const w = await sb.ops.newWindow({ session, name: 'w', cwd: sb.dir, argv: ['sleep', '1000'] });
    // `>>` creates the file before it writes: wait for the line, not for the file.
    const line = await waitFor(() => readFile(log, 'utf8').then((t) => t.trim() || undefined, () => undefined), { what: 'after-new-window' });
    expect(line).toBe(w.windowId);
    await sb.ops.unsetHook(session, 'after-new-window');
    expect(await sb.tmux('show-hooks', '-t', session)).not.toContain('after-new-window');
  });
});

describe('key bindings', () => {
  it('reads, replaces and restores the prefix r binding', async () => {
    const sb = await useSandbox();
    await sb.startServer();
    const original = await sb.ops.listKey('prefix', 'r');
    expect(original).toBe('refresh-client');
    const mine = `if-shell -F "#{@fleetcom-task}" { run-shell -b "echo 'a b' #{pane_id}" } { ${original} }`;
    await sb.ops.bindKey('prefix', 'r', mine);
    const read = await sb.ops.listKey('prefix', 'r');
    expect(read).toContain('run-shell -b');
    expect(read).toContain('#{pane_id}');
    // What listKey returns is tmux command syntax: binding it again gives the same binding.
    await sb.ops.bindKey('prefix', 'r', read ?? '');
    expect(await sb.ops.listKey('prefix', 'r')).toBe(read);

    await sb.ops.bindKey('prefix', 'r', original ?? '');
    expect(await sb.ops.listKey('prefix', 'r')).toBe('refresh-client');
    await sb.ops.unbindKey('prefix', 'r');
    expect(await sb.ops.listKey('prefix', 'r')).toBeNull();
    await sb.ops.unbindKey('prefix', 'r');
  });

  it('binds keys that tmux treats specially (; and #)', async () => {
    const sb = await useSandbox();
    await sb.startServer();
    await sb.ops.bindKey('prefix', ';', 'display-message semi');
    await sb.ops.bindKey('prefix', '#', 'display-message hash');
    expect(await sb.ops.listKey('prefix', ';')).toBe('display-message semi');
    expect(await sb.ops.listKey('prefix', '#')).toBe('display-message hash');
    expect(await sb.ops.listKey('no-such-table', 'r')).toBeNull();
  });
});

describe('environment and sessions', () => {
  it('showGlobalEnvironment is the environment the server started with, plus set-environment -g', async () => {
    const sb = await useSandbox();
    await sb.startServer();
    await sb.tmux('set-environment', '-g', 'MULTI', 'a\nb "q" $x `y` \\z');
    await sb.tmux('set-environment', '-g', '-r', 'GONE');
    const env = await sb.ops.showGlobalEnvironment();
    expect(env.HOME).toBe(sb.home);
    expect(env.PATH).toBe(sb.env.PATH);
    expect(env.MULTI).toBe('a\nb "q" $x `y` \\z');
    expect(env).not.toHaveProperty('GONE');
    expect(env).not.toHaveProperty('TMUX');
  });

  it('newSession, sessionId, hasSession, displayMessage, selectWindow, killWindow, killServer', async () => {
    const sb = await useSandbox();
    expect(await sb.ops.sessionId('main')).toBeNull();
    expect(await sb.ops.hasSession('main')).toBe(false);
    const id = await sb.startServer();
    expect(id).toMatch(/^\$\d+$/);
    expect(await sb.ops.sessionId('main')).toBe(id);
    const other = await sb.ops.newSession({ name: 'main2', cwd: sb.dir, argv: ['sleep', '1000'] });
    expect(await sb.ops.sessionId('main2')).toBe(other);
    expect(await sb.ops.sessionId('mai')).toBeNull();
    expect(await sb.ops.displayMessage(id, '#{session_name}:#{session_id}')).toBe(`main:${id}`);

    const w = await sb.ops.newWindow({ session: id, name: 'second', cwd: sb.dir, argv: ['sleep', '1000'] });
    await sb.ops.selectWindow(w.windowId);
    expect(await sb.ops.displayMessage(id, '#{window_id}')).toBe(w.windowId);
    await sb.ops.killWindow(w.windowId);
    expect((await sb.ops.listPanes(id)).map((p) => p.windowId)).not.toContain(w.windowId);

    await sb.ops.killServer();
    expect(await sb.ops.hasSession('main')).toBe(false);
    await sb.ops.killServer();
  });

  it('killWindows closes every window it is given, one already gone in the middle or not', async () => {
    const sb = await useSandbox();
    const id = await sb.startServer();
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await sb.ops.newWindow({ session: id, name: `w${i}`, cwd: sb.dir, argv: ['sleep', '1000'] }));
    await sb.ops.killWindow(made[1]!.windowId);
    await sb.ops.killWindows(made.map((w) => w.windowId));
    const left = (await sb.ops.listPanes(id)).map((p) => p.windowId);
    expect(left).toHaveLength(1);
    for (const w of made) expect(left).not.toContain(w.windowId);
  });
});

describe('errors', () => {
  it('a failing command is a TmuxError naming the subcommand and tmux stderr, exit code 1', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const e = await sb.ops.killWindow('@999').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TmuxError);
    expect(e).toMatchObject({ subcommand: 'kill-window', exitCode: 1 });
    expect((e as TmuxError).stderr).toMatch(/can't find window/);
    expect((e as TmuxError).message).toBe(`tmux kill-window failed: ${(e as TmuxError).stderr}`);
    const seq = await sb.runner.run(['display-message', '-p', 'x', ';', 'kill-window', '-t', '@999']).catch((x: unknown) => x);
    expect((seq as TmuxError).subcommand).toBe('display-message; kill-window');
    expect(await sb.runner.run(['display-message', '-p', '-t', session, 'a', ';', 'display-message', '-p', '-t', session, 'b'])).toBe('a\nb');
  });

  it('no server: queries fail with noServer', async () => {
    const sb = await useSandbox();
    const e = await sb.ops.listPanes('$0').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TmuxError);
    expect((e as TmuxError).noServer).toBe(true);
  });
});
