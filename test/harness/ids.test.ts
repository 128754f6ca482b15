import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshId } from '../../src/harness/ids.js';
import { isValidId, v7TimeMs } from '../../src/harness/index.js';
import { CID, ID, OTHER } from './fixtures.js';

describe('the strict id check', () => {
  it.each([ID, OTHER, CID, '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'])(
    'accepts %s',
    (id) => expect(isValidId(id)).toBe(true),
  );

  it.each([
    ['uppercase', ID.toUpperCase()],
    ['one uppercase letter', `C${ID.slice(1)}`],
    ['braces', `{${ID}}`],
    ['a trailing newline', `${ID}\n`],
    ['a leading space', ` ${ID}`],
    ['35 characters', ID.slice(0, 35)],
    ['37 characters', `${ID}0`],
    ['no dashes', ID.replaceAll('-', '')],
    ['dashes moved', `${ID.slice(0, 7)}-${ID.slice(7, 8)}${ID.slice(9)}`],
    ['the empty string', ''],
    ['shell injection', `${ID.slice(0, 30)}';rm -`],
    ['fullwidth digits', ID.replace('8', '８')],
    ['a URN', `urn:uuid:${ID}`],
  ])('refuses %s', (_label, id) => expect(isValidId(id)).toBe(false));

  const wrong = (ch: string): string[] => (ch === '-' ? ['a', '0', ' ', '_'] : ['-', 'g', 'A', 'F', ' ', "'", 'é', '\n']);
  const cases = [...ID].flatMap((ch, i) => wrong(ch).map((bad) => [i, bad] as const));
  it.each(cases)('refuses the id with position %i replaced by %j', (i, bad) => {
    expect(isValidId(ID.slice(0, i) + bad + ID.slice(i + 1))).toBe(false);
  });

  it('refuses values that are not strings', () => {
    for (const value of [null, undefined, 1, {}, [ID]]) expect(isValidId(value)).toBe(false);
  });

  it('refuses very long input quickly', () => {
    const long = ID.repeat(100_000);
    const started = performance.now();
    expect(isValidId(long)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('fresh and v7 ids', () => {
  it("takes the supervisor's id maker (randomUUID): fresh v4 ids that pass the strict check and differ", () => {
    const ids = new Set(Array.from({ length: 50 }, () => freshId(randomUUID)));
    expect(ids.size).toBe(50);
    for (const id of ids) {
      expect(isValidId(id)).toBe(true);
      expect(id[14]).toBe('4');
    }
  });

  it('refuses what an id maker returns unless it passes the strict check', () => {
    expect(() => freshId(() => 'A0000000-0000-4000-8000-000000000000')).toThrow(/invalid id/);
  });

  it('reads the Unix ms of a v7 id from hex characters 0-7 and 9-12', () => {
    expect(v7TimeMs(CID)).toBe(0x019f5453de22);
    expect(new Date(v7TimeMs(CID) ?? 0).toISOString()).toBe('2026-07-12T03:16:50.338Z');
  });

  it.each([
    ['a v4 id', ID],
    ['an invalid id', CID.toUpperCase()],
  ])('has no v7 time for %s', (_label, id) => expect(v7TimeMs(id)).toBeNull());
});
