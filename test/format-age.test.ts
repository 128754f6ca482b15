import { describe, expect, it } from 'vitest';
import { formatAge } from '../src/format-age.js';

describe('formatAge', () => {
  it.each([
    [0, '0s'],
    [59_999, '59s'],
    [60_000, '1m'],
    [3_599_000, '59m'],
    [3_600_000, '1h'],
    [7_200_000, '2h'],
    [36 * 3_600_000, '36h'],
    [48 * 3_600_000 - 1, '47h'],
    [48 * 3_600_000, '2d'],
    [3 * 86_400_000, '3d'],
    [-5, '0s'],
  ])('formats %i ms as %s (hours up to two days, a negative age as 0s)', (ms, text) => {
    expect(formatAge(ms)).toBe(text);
  });
});
