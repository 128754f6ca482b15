import { describe, expect, it } from 'vitest';
import { keyTableQuery, parseEnvironment, parseListKey } from '../../src/tmux/options.js';
import { PANE_FIELDS, tidyCapture, toPaneRecord } from '../../src/tmux/panes.js';
import { escapeArg } from '../../src/tmux/runner.js';
import { TmuxTooOldError } from '../../src/tmux/errors.js';
import { assertVersionOf, isSupported, parseVersion } from '../../src/tmux/version.js';

describe('parseVersion and isSupported', () => {
  it.each([
    ['tmux 3.3a', 3, 3, true],
    ['tmux 3.2', 3, 2, true],
    ['tmux 3.1c', 3, 1, false],
    ['tmux 2.9a', 2, 9, false],
    ['tmux 4.0', 4, 0, true],
    ['tmux next-3.4', 3, 4, true],
    ['tmux openbsd-7.4\n', 7, 4, true],
    ['tmux master', null, null, true],
  ])('%j is %s.%s, supported: %s', (raw, major, minor, ok) => {
    const v = parseVersion(raw);
    expect([v.major, v.minor]).toEqual([major, minor]);
    expect(isSupported(v)).toBe(ok);
  });
});

describe('assertVersionOf (the #{version} format read with other queries)', () => {
  const asked: string[][] = [];
  const tmux = { run: async (args: readonly string[]) => (asked.push([...args]), 'tmux 3.0a'), runSequence: async () => '' };

  it('checks the formatted version without asking tmux again', async () => {
    asked.length = 0;
    await expect(assertVersionOf(tmux, '3.3a')).resolves.toMatchObject({ major: 3, minor: 3 });
    await expect(assertVersionOf(tmux, 'next-3.4')).resolves.toMatchObject({ major: 3, minor: 4 });
    await expect(assertVersionOf(tmux, '3.1c')).rejects.toBeInstanceOf(TmuxTooOldError);
    expect(asked).toEqual([]);
  });

  it('asks `tmux -V` when the format printed nothing (a tmux without it)', async () => {
    asked.length = 0;
    await expect(assertVersionOf(tmux, '')).rejects.toThrow('tmux 3.0a is too old');
    expect(asked).toEqual([['-V']]);
  });
});

describe('keyTableQuery', () => {
  it('reads every binding of list-keys -T, padded or not, by the key as tmux prints it', () => {
    const out = [
      'bind-key    -T prefix C-x     display-message k=c-x',
      'bind-key    -T prefix \\#      display-message "k=#"',
      'bind-key -r -T prefix z       resize-pane -U',
      'bind-key    -T prefix r       if-shell -F "#{@fleetcom-task}" { run-shell -b "a  b" }',
      'not a binding line',
    ].join('\n');
    const table = keyTableQuery('prefix').parse(out);
    expect([...table]).toEqual([
      ['C-x', 'display-message k=c-x'],
      ['\\#', 'display-message "k=#"'],
      ['z', 'resize-pane -U'],
      ['r', 'if-shell -F "#{@fleetcom-task}" { run-shell -b "a  b" }'],
    ]);
    expect(keyTableQuery('prefix').command).toEqual(['list-keys', '-T', 'prefix']);
  });
});

describe('escapeArg (tmux reads a trailing ; as a command separator)', () => {
  it.each([
    ['plain', 'plain'], ['a;b', 'a;b'], ['echo hi;', 'echo hi\\;'], [';', '\\;'], ['x\\;', 'x\\\\;'], ['', ''],
  ])('%j is sent as %j', (input, expected) => {
    expect(escapeArg(input)).toBe(expected);
  });
});

describe('parseListKey', () => {
  it.each([
    ['bind-key -T prefix r refresh-client', 'refresh-client'],
    ['bind-key -r -T prefix Up select-pane -U', 'select-pane -U'],
    ['bind-key    -T prefix       r     refresh-client', 'refresh-client'],
    ['bind-key -T prefix r run-shell -b "echo \'a b\' #{pane_id}"', 'run-shell -b "echo \'a b\' #{pane_id}"'],
    ['bind-key -T prefix \\; last-pane', 'last-pane'],
    ['bind-key -T prefix r if-shell -F "#{@fleetcom-task}" { run-shell -b x } { refresh-client }', 'if-shell -F "#{@fleetcom-task}" { run-shell -b x } { refresh-client }'],
    ['', null],
    ['something else', null],
  ])('%j → %j', (line, expected) => {
    expect(parseListKey(line)).toBe(expected);
  });
});

describe('parseEnvironment (show-environment -g -s)', () => {
  it('reads values, unescapes them, keeps newlines and drops removed variables', () => {
    const out = [
      'unset GONE;',
      'HOME="/tmp/x"; export HOME;',
      'MULTI="a\nb \\"q\\" \\$x \\`y\\` \\\\z"; export MULTI;',
      'EMPTY=""; export EMPTY;',
      'EQ="a=b"; export EQ;',
    ].join('\n');
    expect(parseEnvironment(out)).toEqual({ HOME: '/tmp/x', MULTI: 'a\nb "q" $x `y` \\z', EMPTY: '', EQ: 'a=b' });
  });
  it('reads nothing from nothing', () => {
    expect(parseEnvironment('')).toEqual({});
  });
  it('refuses what it cannot read', () => {
    expect(() => parseEnvironment('HOME=/tmp')).toThrow(/cannot parse/);
  });
});

describe('toPaneRecord', () => {
  const raw = (over: Partial<Record<(typeof PANE_FIELDS)[number], string>>) => ({
    pane_id: '%3', window_id: '@2', window_index: '1', window_name: 'w', session_id: '$0', pane_dead: '0',
    pane_dead_status: '', pane_dead_signal: '', pane_dead_time: '', pane_pid: '123', pane_tty: '/dev/pts/7', window_activity: '1700000000', pane_title: 'host', '@fleetcom-task': '',
    '@fleetcom-run': '', '@fleetcom-socket': '', ...over,
  });
  it('reads a live untagged pane', () => {
    expect(toPaneRecord(raw({}))).toEqual({
      paneId: '%3', windowId: '@2', windowIndex: 1, windowName: 'w', sessionId: '$0', paneDead: false, paneExited: false,
      paneDeadStatus: null, paneDeadSignal: null, paneDeadTime: null, panePid: 123, paneTty: '/dev/pts/7', windowActivity: 1700000000, paneTitle: 'host', fleetcomTask: null, fleetcomRun: null,
      fleetcomSocket: null,
    });
  });
  it.each([
    ['an exit status', { pane_dead: '1', pane_dead_status: '1', pane_dead_time: '1700000001' }, 1, null],
    ['exit status 0', { pane_dead: '1', pane_dead_status: '0', pane_dead_time: '1700000001' }, 0, null],
    ['a signal death (empty status)', { pane_dead: '1', pane_dead_signal: '15', pane_dead_time: '1700000001' }, null, 15],
  ])('reads a dead pane with %s', (_t, over, status, signal) => {
    const r = toPaneRecord(raw(over));
    expect(r).toMatchObject({ paneDead: true, paneExited: true, paneDeadStatus: status, paneDeadSignal: signal, paneDeadTime: 1700000001 });
  });
  it('does not call a pane dead before tmux has reaped its process (3.3a sets pane_dead early)', () => {
    expect(toPaneRecord(raw({ pane_dead: '1' }))).toMatchObject({ paneDead: false, paneExited: true, paneDeadStatus: null });
  });
  it('reads the fleetcom window options', () => {
    const r = toPaneRecord(raw({ '@fleetcom-task': '4', '@fleetcom-run': '2', '@fleetcom-socket': '/r/default.sock' }));
    expect([r.fleetcomTask, r.fleetcomRun, r.fleetcomSocket]).toEqual([4, 2, '/r/default.sock']);
  });
});

describe('tidyCapture', () => {
  it.each([
    ['trims trailing spaces per line', 'a  \nb\t\n c ', 'a\nb\n c'],
    ['drops trailing blank lines', 'a\n\n   \n\n', 'a'],
    ['keeps inner blank lines', 'a\n\nb', 'a\n\nb'],
    ['empty stays empty', '   \n', ''],
  ])('%s', (_t, input, expected) => {
    expect(tidyCapture(input)).toBe(expected);
  });
});
