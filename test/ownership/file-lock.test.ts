import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holderAlive, withFileLock } from '../../src/ownership/file-lock.js';
import { startTicks } from '../../src/ownership/proc.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fleetcom-file-lock-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** A pid that has ended and been reaped (spawnSync waits for it). */
function endedPid(): number {
  const child = spawnSync('/bin/sh', ['-c', 'echo $$']);
  return Number(child.stdout.toString().trim());
}

describe('holderAlive', () => {
  it('tells a live process (by pid and start) from an ended one, a reused pid and no record at all', () => {
    const parent = process.ppid;
    expect(holderAlive(`${parent}\nstart ${startTicks('/proc', parent)}\n`)).toBe(true);
    expect(holderAlive(`${parent}\nstart 1\n`)).toBe(false); // the pid now names a process started later
    expect(holderAlive(`${endedPid()}\nstart -\n`)).toBe(false);
    expect(holderAlive('not a lock')).toBe(false);
    expect(holderAlive(`${process.pid}\n`)).toBe(true);
  });
});

describe('withFileLock', () => {
  it('runs the section holding <file>.lock and removes the lock after, also when the section throws', async () => {
    const file = join(tmp, 'list.json');
    const seen = await withFileLock(file, () => readFileSync(`${file}.lock`, 'utf8'));
    expect(seen.split('\n')[0]).toBe(String(process.pid));
    expect(existsSync(`${file}.lock`)).toBe(false);
    await expect(withFileLock(file, () => {
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('breaks the lock of a process that has ended, leaving no break file behind', async () => {
    const file = join(tmp, 'list.json');
    writeFileSync(`${file}.lock`, `${endedPid()}\nstart -\n`);
    expect(await withFileLock(file, () => 'ran')).toBe('ran');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('waits for a live holder, and gives up after the wait naming it, the lock left as it was', async () => {
    const file = join(tmp, 'list.json');
    const held = `${process.ppid}\nstart ${startTicks('/proc', process.ppid)}\n`;
    writeFileSync(`${file}.lock`, held);
    await expect(withFileLock(file, () => 'ran', { waitMs: 200 })).rejects.toThrow(`is held by pid ${process.ppid}`);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(held);
  });
});
