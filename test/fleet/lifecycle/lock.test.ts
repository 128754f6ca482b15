import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock, lockHolder, lockText, parseLock, releaseLock, runningFleet } from '../../../src/fleet/lifecycle/lock.js';
import { identityOf, processExists } from '../../../src/fleet/lifecycle/process-identity.js';
import { lockedSupervisor } from '../../../src/control/lock-record.js';
import { startTimeOf } from '../../../src/ownership/proc.js';
import { runtimeFiles, type RuntimeFiles } from '../../../src/paths.js';
import { tempDir } from '../../harness/fixtures.js';
import { makeZombie } from '../../helpers/zombie.js';

/** Above Linux's PID_MAX_LIMIT (2^22): no process can have it. */
const NO_PID = 2 ** 22 + 1;

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

describe('taking the lock of a runtime dir', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  function runtime(): RuntimeFiles {
    const dir = tempDir();
    return runtimeFiles(dir);
  }

  /** A live process that is not a supervisor (this test's own child). */
  function bystander(): number {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(child);
    return child.pid!;
  }

  const held = (files: RuntimeFiles) => parseLock(readFileSync(files.lock, 'utf8'));

  it('writes a lock naming this process by pid, start time and command', async () => {
    const files = runtime();
    await acquireLock(files, process.pid);
    expect(held(files)).toEqual({ pid: process.pid, start: identityOf(process.pid)?.start, command: identityOf(process.pid)?.command });
    expect(statSync(files.lock).mode & 0o777).toBe(0o600);
    releaseLock(files, process.pid);
    expect(existsSync(files.lock)).toBe(false);
  });

  it.each([
    ['a pid no process has', () => lockText({ pid: NO_PID, start: '100', command: 'node cli.js up' })],
    ['a live pid reused by another process (its start time differs)', (pid: number) => lockText({ pid, start: '1', command: 'node cli.js up' })],
    ['garbage', () => 'not a lock\n'],
  ])('takes over a stale lock naming %s, and leaves no break file', async (_, text) => {
    const files = runtime();
    writeFileSync(files.lock, text(bystander()));
    await acquireLock(files, process.pid);
    expect(held(files)?.pid).toBe(process.pid);
    expect(readdirSync(files.dir)).toEqual(['lock']);
  });

  it('names a live holder that does not answer, and leaves its lock alone', async () => {
    const files = runtime();
    const pid = bystander();
    const text = lockText(identityOf(pid)!);
    writeFileSync(files.lock, text);
    const error = await runningFleet(files);
    expect(error?.message).toContain(`its supervisor (pid ${pid}: sleep 60) holds ${files.lock} but does not answer`);
    expect(readFileSync(files.lock, 'utf8')).toBe(text);
  });

  it('takes over the lock of a supervisor that ended but is not reaped yet (a zombie holds nothing)', async () => {
    const files = runtime();
    const zombie = await makeZombie();
    try {
      // Written while it ran, as a supervisor writes its lock: its own pid and start time.
      writeFileSync(files.lock, lockText(identityOf(zombie.pid) ?? { pid: zombie.pid, start: null, command: '' }));
      expect(processExists(zombie.pid)).toBe(false);
      expect(lockedSupervisor(files.lock)).toBeNull();
      expect(await runningFleet(files)).toBeNull();
      await acquireLock(files, process.pid, 0);
      expect(held(files)?.pid).toBe(process.pid);
    } finally {
      zombie.release();
    }
  });

  it("never releases another process's lock", () => {
    const files = runtime();
    writeFileSync(files.lock, lockText({ pid: NO_PID, start: null, command: '' }));
    releaseLock(files, process.pid);
    expect(held(files)?.pid).toBe(NO_PID);
  });
});
