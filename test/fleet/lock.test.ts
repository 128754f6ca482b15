import { describe, expect, it } from 'vitest';
import { lockHolder, lockText, parseLock } from '../../src/fleet/lock.js';
import { startTimeOf } from '../../src/ownership/proc.js';

describe('a process start time from /proc/<pid>/stat', () => {
  const tail = 'S 1 2 3 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10 18446744073709551615';
  it.each([
    ['a plain command name', `4242 (node) ${tail}`, '987654'],
    ['a name with spaces and parentheses', `4242 (a) b (c) ${tail}`, '987654'],
    ['a line cut short', '4242 (node) S 1 2', null],
    ['no parenthesis at all', '', null],
  ])('%s', (_, stat, start) => {
    expect(startTimeOf(stat)).toBe(start);
  });
});

describe('the lock text', () => {
  it('round-trips the pid, the start time and the command, and keeps the pid on the first line', () => {
    const text = lockText({ pid: 4242, start: '987654', command: 'node /x/cli.js up\nforged 1' });
    expect(text.split('\n')[0]).toBe('4242');
    expect(parseLock(text)).toEqual({ pid: 4242, start: '987654', command: 'node /x/cli.js up forged 1' });
  });

  it.each([
    ['an empty file', ''],
    ['a negative pid', '-1\n'],
    ['pid zero', '0\n'],
    ['words', 'hello\n4242\n'],
    ['a huge number', '99999999999999\n'],
  ])('names no pid in %s', (_, text) => {
    expect(parseLock(text)).toBeNull();
  });

  it('reads the pid-only lock of earlier versions without a start time', () => {
    expect(parseLock('4242\n')).toEqual({ pid: 4242, start: null, command: '' });
  });
});

describe('whether a lock is held', () => {
  const live = (start: string | null) => () => ({ pid: 4242, start, command: 'node cli.js up' });
  it.each([
    ['the same process', '100', live('100'), true],
    ['a reused pid: another process started later', '100', live('200'), false],
    ['a dead pid', '100', () => null, false],
    ['an older lock without a start time, pid alive', null, live('200'), true],
    ['a system without /proc', '100', live(null), true],
  ])('%s', (_, start, identify, held) => {
    expect(lockHolder({ pid: 4242, start, command: '' }, identify) !== null).toBe(held);
  });

  it('never counts a lock naming this very process as another holder', () => {
    expect(lockHolder({ pid: process.pid, start: null, command: '' }, live(null))).toBeNull();
  });
});
