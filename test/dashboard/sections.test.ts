import { describe, expect, it } from 'vitest';
import { sections } from '../../src/dashboard/model.js';
import { HOME, row } from './rows.js';

describe('sections of a large fleet', () => {
  it('puts each of 1000 rows in its section once, in id order', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row(1000 - i, { state: i % 2 ? 'idle' : 'running', group: i % 3 ? 'g' : null }));
    for (const grouping of ['state', 'directory', 'group'] as const) {
      const found = sections(rows, grouping, HOME);
      expect(found.reduce((n, s) => n + s.rows.length, 0)).toBe(1000);
      for (const section of found) expect(section.rows.map((r) => r.id)).toEqual([...section.rows.map((r) => r.id)].sort((a, b) => a - b));
    }
    expect(sections(rows, 'state', HOME).map((s) => [s.title, s.rows.length])).toEqual([['Running', 500], ['Idle', 500]]);
  });
});
