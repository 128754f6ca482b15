// The dashboard's "Needs you": its group at the top, its order, its styles and the N key.
import { describe, expect, it } from 'vitest';
import { handleKey } from '../../src/dashboard/keys.js';
import { rowOf, sections } from '../../src/dashboard/model.js';
import { coloursWanted } from '../../src/dashboard/terminal.js';
import { render } from '../../src/dashboard/view.js';
import type { Task } from '../../src/fleet/supervisor/task.js';
import { fleet, HOME, row, ui } from './rows.js';

const SID = 'b76c5d24-78e9-4c78-b673-5cc322b36d7c';
// Task 3 waits since t=100, task 1 since t=50, task 2 asks for a permission since t=200.
const attending = fleet.map((r) =>
  r.id === 1 ? { ...r, attention: 'waiting' as const, since: 50, line: 'claude is waiting for you' }
    : r.id === 2 ? { ...r, attention: 'permission' as const, since: 200, line: 'Claude needs your permission' }
      : r.id === 3 ? { ...r, attention: 'waiting' as const, since: 100 }
        : r,
);

describe('Needs you', () => {
  it('comes first in every grouping: a permission, then the longest waiting; those rows are not repeated below', () => {
    for (const grouping of ['state', 'directory', 'group'] as const) {
      const shown = sections(attending, grouping, HOME);
      expect(shown[0]).toMatchObject({ title: 'Needs you' });
      expect(shown[0]?.rows.map((r) => r.id)).toEqual([2, 1, 3]);
      expect(shown.slice(1).flatMap((s) => s.rows.map((r) => r.id)).sort()).toEqual([4, 5, 6]);
    }
    expect(sections(fleet, 'state', HOME)[0]?.title).not.toBe('Needs you');
  });

  it('styles its rows by attention (the loop colours them) unless selected, with the attention glyphs', () => {
    const screen = render({ rows: attending, ui: ui({ selected: 4 }), home: HOME, width: 72, height: 12 });
    expect(screen.lines[1]?.trimEnd()).toBe('Needs you (3)');
    expect(screen.lines[2]).toMatch(/^ {2}⚑  web +Claude needs your permission/);
    expect(screen.lines[3]).toMatch(/^ {2}❯◆ claude +claude is waiting for you/);
    expect(screen.styles.slice(2, 5)).toEqual(['permission', 'waiting', 'waiting']);
  });

  it('shows why a task needs you as its line, and ages it from when that began', () => {
    const task = { id: 1, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, endedAt: null, lastOutputAt: 9_000, exitStatus: null, windowId: '@1', paneId: '%1' } as unknown as Task;
    const permission = rowOf(task, 10_000, '❯ last screen line', { attention: 'permission', since: 4_000, message: null, conversation: SID });
    expect(permission).toMatchObject({ line: 'claude needs your permission', ageMs: 6_000, attention: 'permission' });
    const working = rowOf(task, 10_000, 'thinking…', { attention: 'working', since: 4_000, message: null, conversation: SID });
    expect(working).toMatchObject({ line: 'thinking…', ageMs: 1_000, attention: 'working' });
    const exited = rowOf({ ...task, endedAt: 9_500, exitStatus: 0 } as Task, 10_000, 'bye', { attention: 'waiting', since: 4_000, message: null, conversation: SID });
    expect(exited).toMatchObject({ attention: null, line: 'bye' });
  });

  it('N goes to the next task that needs you and shows its window, round and round; none says so', () => {
    let state = ui({ selected: 4 });
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      const result = handleKey(state, { name: 'char', char: 'N' }, attending, HOME);
      state = result.ui;
      expect(result.action).toEqual({ kind: 'select-window', id: state.selected });
      seen.push(state.selected ?? 0);
    }
    expect(seen).toEqual([2, 1, 3, 2]);
    const none = handleKey(ui(), { name: 'char', char: 'N' }, [row(1)], HOME);
    expect(none).toMatchObject({ action: null, ui: { status: 'no task needs you' } });
  });
});

describe('colours', () => {
  const tty = { hasColors: (count: number, env: Record<string, string>) => count <= 256 && env.TERM !== 'dumb' };
  it.each([
    ['a colour terminal', { TERM: 'xterm-256color' }, tty, true],
    ['NO_COLOR set', { TERM: 'xterm-256color', NO_COLOR: '1' }, tty, false],
    ['an empty NO_COLOR (the convention: ignored)', { TERM: 'xterm-256color', NO_COLOR: '' }, tty, true],
    ['TERM=dumb', { TERM: 'dumb' }, tty, false],
    ['a terminal without colours', { TERM: 'vt100' }, { hasColors: () => false }, false],
    ['an output that cannot say', { TERM: 'xterm' }, {}, false],
  ])('%s: %s', (_what, env, output, wanted) => {
    expect(coloursWanted(env, output)).toBe(wanted);
  });
});
