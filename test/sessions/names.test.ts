import { describe, expect, it } from 'vitest';
import {
  SessionUsageError,
  abbreviateDir,
  expandDir,
  isSessionPath,
  parseRecoveryFileName,
  recoveryFileName,
  recoveryLabel,
  sessionFileName,
  truncateUtf8,
} from '../../src/sessions/index.js';

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('sessionFileName', () => {
  it.each([
    ['my/session', 'my_session.json'],
    ['a.b', 'a_b.json'],
    ['  spaced out  ', 'spaced out.json'],
    ['*"/\\<>:|?.', '__________.json'],
    ['tab\there\nnl\u007fdel\u0085c1', 'tab_here_nl_del_c1.json'],
    ['..', '__.json'],
    ['../../etc/passwd', '______etc_passwd.json'],
    ['émoji 🚀', 'émoji 🚀.json'],
  ])('sanitises %j to %j', (name, file) => {
    expect(sessionFileName(name)).toBe(file);
  });

  it.each(['', '   ', '\t\n'])('refuses the empty name %j as a usage error', (name) => {
    expect(() => sessionFileName(name)).toThrow(SessionUsageError);
    try {
      sessionFileName(name);
    } catch (e) {
      expect((e as SessionUsageError).exitCode).toBe(2);
    }
  });

  it('cuts an ASCII name to 250 bytes before .json', () => {
    const file = sessionFileName('x'.repeat(300));
    expect(file).toBe(`${'x'.repeat(250)}.json`);
  });

  it.each([
    ['2-byte é', 'é', 2],
    ['3-byte 語', '語', 3],
    ['4-byte 🚀', '🚀', 4],
  ])('cuts a name of %s characters to at most 250 bytes without splitting one', (_label, ch, size) => {
    const stem = sessionFileName(`a${ch.repeat(200)}`).replace(/\.json$/, '');
    expect(utf8(stem)).toBeLessThanOrEqual(250);
    expect(utf8(stem)).toBeGreaterThan(250 - size);
    expect(stem).toBe(`a${ch.repeat(Math.floor(249 / size))}`);
    expect(stem.includes('\uFFFD')).toBe(false);
  });

  it('truncateUtf8 keeps whole characters only', () => {
    expect(truncateUtf8('a🚀b', 4)).toBe('a');
    expect(truncateUtf8('a🚀b', 5)).toBe('a🚀');
    expect(truncateUtf8('abc', 10)).toBe('abc');
  });
});

describe('isSessionPath', () => {
  it.each([
    ['/abs/file', true],
    ['./here', true],
    ['../up', true],
    ['~', true],
    ['~/s/x.json', true],
    ['work.json', true],
    ['work', false],
    ['my session', false],
    ['.hidden', false],
    ['a/b', false],
    ['json', false],
  ])('%j is a path: %s', (arg, expected) => {
    expect(isSessionPath(arg)).toBe(expected);
  });
});

describe('expandDir and abbreviateDir', () => {
  const home = '/home/ann';
  const cwd = '/work/proj';
  it.each([
    ['~', '/home/ann'],
    ['~/code/x', '/home/ann/code/x'],
    ['/abs/./p/../q', '/abs/q'],
    ['sub', '/work/proj/sub'],
    ['../other', '/work/other'],
    ['~bob/x', '/work/proj/~bob/x'],
  ])('expands %j to %j', (dir, abs) => {
    expect(expandDir(dir, home, cwd)).toBe(abs);
  });

  it.each([
    ['/home/ann', '/home/ann', '~'],
    ['/home/ann/code', '/home/ann', '~/code'],
    ['/home/ann/code', '/home/ann/', '~/code'],
    ['/home/anna', '/home/ann', '/home/anna'],
    ['/srv/x', '/home/ann', '/srv/x'],
    ['/srv/x', '/', '/srv/x'],
    ['~/already', '/home/ann', '~/already'],
  ])('writes %j under HOME %j as %j', (dir, h, written) => {
    expect(abbreviateDir(dir, h)).toBe(written);
  });
});

describe('recovery file names', () => {
  const startedAt = new Date('2026-11-29T19:30:05.123Z');

  it('names a snapshot by UTC start time and pid', () => {
    expect(recoveryFileName(startedAt, 4242)).toBe('20261129-193005-4242.json');
    expect(recoveryLabel(startedAt)).toBe('autosaved 2026-11-29 19:30');
  });

  it('reads the start time and pid back from a snapshot name', () => {
    expect(parseRecoveryFileName('20261129-193005-4242.json')).toEqual({
      startedAt: new Date('2026-11-29T19:30:05Z'),
      pid: 4242,
    });
  });

  it.each(['notes.json', '20261399-193005-1.json', '20261129-193005-0.json', '20261129-193005-1.json.tmp', '.fleetcom-ab.tmp'])(
    'does not take %j for a snapshot',
    (name) => {
      expect(parseRecoveryFileName(name)).toBeNull();
    },
  );
});
