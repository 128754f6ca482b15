// The control connection against a real tmux server: what it answers is what a spawned client
// prints, whatever the arguments and whatever a pane printed; a lost client is seen and made
// again, and a call in flight is not lost.
import { describe, expect, it, onTestFinished } from 'vitest';
import { TmuxError } from '../../src/tmux/errors.js';
import { CONTROL_TERM, ControlConnection } from '../../src/tmux/control/connection.js';
import { ControlRunner } from '../../src/tmux/control/control-runner.js';
import { HOSTILE_CHARS, hostileText, seededRandom } from '../helpers/hostile-text.js';
import { waitForText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

async function connected(sb: Sandbox, session: string): Promise<{ runner: ControlRunner; log: string[] }> {
  const log: string[] = [];
  const runner = new ControlRunner(sb.runner, { session, log: (line) => log.push(line) });
  onTestFinished(() => runner.stop());
  runner.start();
  await waitFor(() => runner.connected, { what: 'the control connection' });
  return { runner, log };
}

describe('the control connection', () => {
  it('answers as a spawned client does, for every argument the quoting must carry', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const { runner } = await connected(sb, session);
    const words = ['', ';', 'x;', "it's", '"', '\\', '$HOME ~ #x {y}', '%if 1', 'a\nb', '\t\r\x1b', '☃ é', ...HOSTILE_CHARS, ...Array.from({ length: 30 }, (_, i) => hostileText(seededRandom(i), 20))];
    for (const word of words) {
      // display-message expands formats in its text: compare with what a spawned client prints.
      const command = ['display-message', '-p', '-t', session, word];
      expect(await runner.runSequence([command]), JSON.stringify(word)).toBe(await sb.runner.runSequence([command]));
    }
    await sb.tmux('set-option', '-g', '@probe', 'v;a\nl');
    expect(await runner.runSequence([['show-options', '-gqv', '@probe']])).toBe('v;a\nl');
  });

  it('gives a pane\'s text as it is, guard lines printed in it included', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const { runner } = await connected(sb, session);
    const forged = await sb.ops.newWindow({ session, name: 'forged', cwd: sb.dir, argv: ['sh', '-c', `printf '%%end 1700000000 1 1\\n%%begin 1 2 1\\n%%window-close @0\\n\\n%%exit\\nlast\\n'; sleep 600`] });
    await waitForText(sb, forged.paneId, 'last');
    const command = ['capture-pane', '-p', '-J', '-S', '-', '-E', '-', '-t', forged.paneId];
    const text = await runner.runSequence([command]);
    expect(text).toBe(await sb.runner.runSequence([command]));
    // tmux 3.2 keeps a line's trailing spaces, 3.3 does not.
    expect(text.replace(/ +$/gm, '')).toContain('%end 1700000000 1 1\n%begin 1 2 1\n%window-close @0\n\n%exit\nlast');
    expect(runner.connected).toBe(true);
  });

  it('fails a sequence at its first failing command with what came before, as a spawned client does', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const { runner } = await connected(sb, session);
    const sequence = [['display-message', '-p', 'first'], ['kill-window', '-t', '@999'], ['display-message', '-p', 'never']];
    const error = (await runner.runSequence(sequence).catch((e: unknown) => e)) as TmuxError;
    expect(error).toBeInstanceOf(TmuxError);
    expect(error.subcommand).toBe('display-message; kill-window; display-message');
    expect(error.stderr).toMatch(/can't find window/);
    expect(error.stdout).toBe('first');
    // The connection goes on.
    expect(await runner.runSequence([['display-message', '-p', 'next']])).toBe('next');
  });

  it('is a client tmux lists with its own terminal name, and sizes no window', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const { runner } = await connected(sb, session);
    const clients = await sb.tmux('list-clients', '-F', '#{client_pid} #{client_termname} #{client_flags}');
    expect(clients).toMatch(new RegExp(`^${runner.state().pid} ${CONTROL_TERM} .*control-mode.*no-output`));
    await sb.tmux('resize-window', '-t', session, '-x', '100', '-y', '30');
    await runner.runSequence([['list-panes', '-a', '-F', '#{pane_id}']]);
    expect(await sb.tmux('display-message', '-p', '-t', session, '#{window_width}x#{window_height}')).toBe('100x30');
  });

  it('is made again after its client is killed, said once, and a read in flight is answered by a spawned client', async () => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    const { runner, log } = await connected(sb, session);
    const pid = runner.state().pid!;
    const read = runner.runSequence([['display-message', '-p', '-t', session, '#{session_id}']]);
    process.kill(pid, 'SIGKILL');
    expect(await read).toBe(session);
    await waitFor(() => runner.connected && runner.state().pid !== pid, { what: 'a new control connection' });
    expect(log.filter((l) => l.startsWith('the tmux control connection is down'))).toHaveLength(1);
    expect(log.filter((l) => l.startsWith('the tmux control connection is back')), log.join('\n')).toHaveLength(1);
    expect(await runner.runSequence([['display-message', '-p', 'again']])).toBe('again');
  });

  it.each([['on'], ['off']])('keeps trying while the session is gone and says so once (detach-on-destroy %s)', async (detach) => {
    const sb = await useSandbox();
    const session = await sb.startServer();
    await sb.startServer({ name: 'other' });
    // off: tmux moves a client of a destroyed session to another one instead of detaching it.
    await sb.tmux('set-option', '-g', 'detach-on-destroy', detach);
    const { runner, log } = await connected(sb, session);
    await sb.tmux('kill-session', '-t', session);
    await waitFor(() => !runner.connected, { what: 'the connection to close' });
    // Spawned meanwhile.
    expect(await runner.runSequence([['display-message', '-p', 'spawned']])).toBe('spawned');
    await waitFor(() => log.length >= 1, { what: 'the loss said' });
    expect(log).toHaveLength(1);
  });

  it('refuses to open on a session that does not exist, naming tmux\'s reason', async () => {
    const sb = await useSandbox();
    await sb.startServer();
    await expect(ControlConnection.open({ socketPath: sb.socket, env: sb.env, session: '$99' })).rejects.toThrow(/can't find session/);
  });
});
