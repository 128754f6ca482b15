// The dashboard below 60 columns (a phone's ssh client): one line per task, those that need
// you first, glyph, short label, what it needs, age; the same order the keys move in.
import { describe, expect, it } from 'vitest';
import { cellWidth } from '../../src/dashboard/cells.js';
import { displayOrder } from '../../src/dashboard/model.js';
import { render, type Frame } from '../../src/dashboard/view.js';
import { fleet, HOME, row, ui } from './rows.js';

const rows = [
  ...fleet,
  row(7, { command: 'claude', name: 'api-refactor-of-the-parser', attention: 'permission', since: 1, line: 'Claude needs your permission', ageMs: 40_000 }),
  row(8, { command: 'claude', attention: 'waiting', since: 2, line: 'Deploy to prod now?', ageMs: 5_000 }),
];
const frame = (fields: Partial<Frame>): Frame => ({ rows, ui: ui(), home: HOME, width: 40, height: 20, ...fields });

describe('the narrow dashboard', () => {
  it('at 40×20: a task a line, the ones that need you first, no section titles, every line 40 cells', () => {
    const { lines } = render(frame({ ui: ui({ selected: 8 }) }));
    expect(lines.map((l) => l.trimEnd()).slice(0, 10)).toEqual([
      'fleetcom 2 need you · 8 tasks · ?',
      ' ⚑ api-refactor-… Claude needs your… 40s',
      '›❯ claude         Deploy to prod no…  5s',
      ' ✻◆claude         ● Edited src/api/…  4s',
      ' ✻ web            ready in 412 ms     1m',
      ' ∙ codex          › Ask Codex to do… 12s',
      ' ✓ npm test       Tests  42 passed …  2h',
      ' ✗ grok           error: rate limit…  5m',
      ' ✗ sleep 100                          1m',
      '',
    ]);
    expect(lines).toHaveLength(20);
    for (const line of lines) expect(cellWidth(line)).toBe(40);
  });

  it('keeps the order the keys move in, whatever the width', () => {
    const order = displayOrder(rows, ui(), HOME).map((r) => r.id);
    const shown = (width: number) => render(frame({ width, height: 30 })).visible;
    expect(shown(40)).toEqual(order);
    expect(shown(100)).toEqual(order);
  });

  it('names a host on its tasks\' lines, and the reason of one that did not answer', () => {
    const remote = row(100, { command: 'codex', attention: 'waiting', since: 3, line: 'codex is waiting for you', remote: { host: 'gpu', id: 4, windowId: '@4', paneId: '%4', socket: null } as never });
    const { lines } = render(frame({ rows: [remote], hosts: [{ host: 'gpu', note: null }, { host: 'db', note: 'unreachable: timed out' }] as never }));
    expect(lines.map((l) => l.trimEnd()).slice(0, 4)).toEqual(['fleetcom 1 need you · 1 tasks · ?', '›❯ gpu:codex codex is waiting for y…  3s', 'db: unreachable: timed out', '']);
  });

  it('has a help that fits 40 columns', () => {
    const { lines } = render(frame({ ui: ui({ mode: { kind: 'help' } }) }));
    for (const line of lines.slice(1, -1)) expect(line.trimEnd().length).toBeLessThanOrEqual(40);
    expect(lines.join('\n')).toContain('N       next task needing you');
  });
});
