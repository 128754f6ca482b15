import { describe, expect, it } from 'vitest';
import { ATTENTION_GLYPHS, glyphFor, LEADING_GLYPH, STATE_GLYPHS, TAGGED_GLYPH } from '../../../src/fleet/supervisor/glyphs.js';
import { windowName, type Task } from '../../../src/fleet/supervisor/task.js';

describe('glyphFor', () => {
  it.each([
    ['running', null, null, '✻'],
    ['idle', null, null, '∙'],
    ['exited', 0, null, '✓'],
    ['exited', 1, null, '✗'],
    ['exited', null, null, '✗'],
    ['running', null, 'waiting', '❯'],
    ['idle', null, 'permission', '⚑'],
    ['exited', 0, 'waiting', '✓'],
  ] as const)('shows a %s task (status %s, attention %s) as %s', (state, status, attention, glyph) => {
    expect(glyphFor(state, status, attention)).toBe(glyph);
  });
});

describe('a window name read back', () => {
  const task = { id: 3, name: 'build', command: 'make', exitStatus: 0, endedAt: null, lastOutputAt: 1_000 } as unknown as Task;

  it('loses exactly the mark windowName gave it, in every state', () => {
    for (const [endedAt, now, attention] of [[null, 1_000, null], [null, 60_000, null], [2_000, 3_000, null], [null, 1_000, 'permission']] as const) {
      const name = windowName({ ...task, endedAt } as Task, now, 10_000, attention);
      expect(name.replace(LEADING_GLYPH, '')).toBe('build');
    }
  });

  it('strips every glyph of the table, and only one leading mark', () => {
    for (const glyph of [...Object.values(STATE_GLYPHS), ...Object.values(ATTENTION_GLYPHS), TAGGED_GLYPH]) {
      expect(`${glyph} ${glyph} x`.replace(LEADING_GLYPH, '')).toBe(`${glyph} x`);
    }
    expect('build'.replace(LEADING_GLYPH, '')).toBe('build');
  });
});
