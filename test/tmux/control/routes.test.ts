import { describe, expect, it } from 'vitest';
import { carriedOver } from '../../../src/tmux/control/control-runner.js';
import { screenOf, streamsSupported } from '../../../src/tmux/control/pane-screen.js';

describe('carriedOver: what a control client may run as a spawned client would', () => {
  it.each<[string, string[][], boolean]>([
    ['a list of every pane', [['list-panes', '-a', '-F', '#{pane_id}']], true],
    ['panes of a named session', [['list-panes', '-s', '-t', '$1', '-F', '#{pane_id}']], true],
    ['the current window\'s panes (the control client\'s own)', [['list-panes', '-F', '#{pane_id}']], false],
    ['display-message -p of a pane', [['display-message', '-p', '-t', '%3', '#{pane_tty}']], true],
    ['display-message -p of the server', [['display-message', '-p', '#{socket_path}']], true],
    ['display-message -p of the current pane', [['display-message', '-p', '#{pane_id}']], false],
    ['display-message to the status line', [['display-message', '-t', '%3', 'hello']], false],
    ['capture-pane -p of a pane', [['capture-pane', '-p', '-J', '-t', '%3']], true],
    ['capture-pane into a buffer', [['capture-pane', '-t', '%3']], false],
    ['a global option', [['set-option', '-g', '@x', '1']], true],
    ['a clustered flag', [['show-options', '-gqv', '@x']], true],
    ['a window option of the current window', [['set-option', '-w', 'remain-on-exit', 'on']], false],
    ['rename a named window', [['rename-window', '-t', '@2', 'x']], true],
    ['select a named window', [['select-window', '-t', '@2']], true],
    ['switch a named client', [['switch-client', '-c', '/dev/pts/3', '-t', '@2']], true],
    ['switch the current client (the control client)', [['switch-client', '-t', '@2']], false],
    ['a background shell', [['run-shell', '-b', 'true']], true],
    ['a shell the queue waits for', [['run-shell', 'true']], false],
    ['wait-for (holds the client)', [['wait-for', 'x']], false],
    ['new-window (PATH from an unattached client)', [['new-window', '-d', '-t', '$1:']], false],
    ['respawn-pane', [['respawn-pane', '-k', '-t', '%3']], false],
    ['a popup (the current client)', [['display-popup', '-E', 'true']], false],
    ['keys typed into a named pane', [['send-keys', '-t', '%3', '-H', '41']], true],
    ['a sequence, all carried', [['set-option', '-t', '$1', 'history-limit', '1'], ['bind-key', '-T', 'prefix', 'r', 'x']], true],
    ['a sequence with one that is not', [['set-option', '-g', '@x', '1'], ['new-window', '-d']], false],
    ['nothing', [], false],
    ['the version flag', [['-V']], false],
  ])('%s: %s', (_, commands, carried) => {
    expect(carriedOver(commands)).toBe(carried);
  });
});

describe('streamsSupported', () => {
  it.each([['3.2', false], ['3.2a', false], ['3.3', true], ['3.3a', true], ['3.6b', true], ['4.0', true], ['next-3.7', true], ['master', true], ['', true]])('%s: %s', (version, ok) => {
    expect(streamsSupported(version)).toBe(ok);
  });
});

describe('screenOf', () => {
  it('clears, draws the lines, places the cursor and shows or hides it', () => {
    const screen = screenOf('10 3 4 1 1\nab\n\x1b[31mcd\x1b[0m\n');
    expect(screen).toEqual({ kind: 'screen', width: 10, height: 3, data: Buffer.from('\x1b[0m\x1b[H\x1b[2Jab\r\n\x1b[31mcd\x1b[0m\r\n\x1b[0m\x1b[2;5H\x1b[?25h') });
    expect(screenOf('10 1 0 0 0\nx')?.data.toString()).toBe('\x1b[0m\x1b[H\x1b[2Jx\x1b[0m\x1b[1;1H\x1b[?25l');
  });
  it('keeps no more lines than the pane has', () => {
    expect(screenOf('5 2 0 0 1\na\nb\nc')?.data.toString()).toContain('a\r\nb\x1b[0m');
  });
  it.each(['', 'x', '10 3 4 1', '10 3 4 1 1 9\n', '10 -3 4 1 1\n', '10 3 4.5 1 1\n'])('refuses a geometry tmux would not print: %j', (text) => {
    expect(screenOf(text)).toBeNull();
  });
});
