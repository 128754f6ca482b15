import { describe, expect, it } from 'vitest';
import { groupWarnings, MAX_REASONS, warningLines, type Warning } from '../src/warnings.js';

const style = { label: 'skipped: ', more: '--verbose lists every one' };
const missing = (n: number): Warning[] =>
  Array.from({ length: n }, (_, i) => ({ entry: `/gone/d${i}`, reason: 'the directory does not exist', tasks: 2 }));

describe('warningLines', () => {
  it('sums up 300 000 entries of one reason in one line with their count and the first three', () => {
    const lines = warningLines(missing(300_000), { label: 'skipping ', noun: 'directories', more: style.more });
    expect(lines).toEqual([
      'skipping 600000 task(s) in 300000 directories: the directory does not exist: /gone/d0, /gone/d1, /gone/d2 and 299997 more (--verbose lists every one)',
    ]);
  });

  it('keeps the line of a reason that only one entry has, its own account included', () => {
    const held: Warning = { entry: '/w: claude', reason: 'open elsewhere', detail: 'conversation x is open in pid 42; not started' };
    expect(warningLines([held, ...missing(1)], style)).toEqual([
      'skipped: /w: claude: conversation x is open in pid 42; not started',
      'skipped: 2 task(s) in /gone/d0: the directory does not exist',
    ]);
  });

  it('lists every entry with verbose, in order', () => {
    const lines = warningLines(missing(5), { label: 'skipping ', more: '' }, true);
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('skipping 2 task(s) in /gone/d4: the directory does not exist');
  });

  it('gives at most MAX_REASONS reasons a line and counts the others in one', () => {
    const many = Array.from({ length: MAX_REASONS + 5 }, (_, i) => [
      { entry: `/w: a${i}`, reason: `reason ${i}` },
      { entry: `/w: b${i}`, reason: `reason ${i}` },
    ]).flat();
    const lines = warningLines(many, style);
    expect(lines).toHaveLength(MAX_REASONS + 1);
    expect(lines[0]).toBe('skipped: 2 task(s): reason 0: /w: a0, /w: b0');
    expect(lines.at(-1)).toBe('skipped: 10 more for 5 other reasons (--verbose lists every one)');
  });

  it('reads a line of an older supervisor (no entry) as a reason of its own', () => {
    expect(warningLines([{ entry: '', reason: 'a whole line' }, { entry: '', reason: 'a whole line' }], style)).toEqual([
      'skipped: a whole line (2 times)',
    ]);
  });
});

describe('groupWarnings', () => {
  it('keeps only the first entries of each reason, whatever the number', () => {
    const [group] = groupWarnings(missing(100_000));
    expect(group).toMatchObject({ count: 100_000, tasks: 200_000 });
    expect(group?.first.map((w) => w.entry)).toEqual(['/gone/d0', '/gone/d1', '/gone/d2']);
  });
});
