// The web token's file and the bad-token lockout.
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Lockout } from '../../src/web/lockout.js';
import { loadToken, readToken } from '../../src/web/token-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'fleetcom-token-'));
  dirs.push(d);
  return d;
};

describe('the token file', () => {
  it('is made once, 0600 in a 0700 directory, and kept; --rotate-token replaces it', () => {
    const file = join(temp(), 'web', 'token');
    const first = loadToken(file, false);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
    expect(loadToken(file, false)).toBe(first);
    const rotated = loadToken(file, true);
    expect(rotated).not.toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(rotated);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a token others can read, and a file that holds no token, naming the file', () => {
    const file = join(temp(), 'web', 'token');
    loadToken(file, false);
    chmodSync(file, 0o644);
    expect(() => readToken(file)).toThrow(new RegExp(`${file}.*can be read by others.*--rotate-token`));
    chmodSync(file, 0o600);
    writeFileSync(file, 'hunter2\n');
    expect(() => readToken(file)).toThrow(/holds no token fleetcom made/);
  });

  it("refuses a token file of another user's, saying whose (the uid it is read as stands in for another user)", () => {
    const file = join(temp(), 'web', 'token');
    loadToken(file, false);
    const mine = statSync(file).uid;
    expect(() => readToken(file, mine + 1)).toThrow(new RegExp(`${file} belongs to uid ${mine}, not to you \\(uid ${mine + 1}\\)`));
  });
});

describe('the lockout', () => {
  const settings = { free: 3, limit: 10, windowMs: 60_000, lockMs: 900_000, delayMs: 250, maxDelayMs: 4_000 };
  it('answers the first few bad tokens at once, then later and later, then locks the peer out for a while', () => {
    const lock = new Lockout(settings);
    const waits = Array.from({ length: 10 }, (_, i) => lock.failed('10.0.0.1', 1000 + i));
    expect(waits).toEqual([0, 0, 0, 250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect(lock.lockedOut('10.0.0.1', 2000)).toBe(true);
    expect(lock.lockedOut('10.0.0.2', 2000)).toBe(false);
    expect(lock.lockedOut('10.0.0.1', 1009 + 900_000)).toBe(false);
  });

  it('forgets failures older than its window', () => {
    const lock = new Lockout(settings);
    for (let i = 0; i < 9; i++) lock.failed('p', i);
    expect(lock.failed('p', 120_000)).toBe(0);
    expect(lock.lockedOut('p', 120_001)).toBe(false);
  });
});
