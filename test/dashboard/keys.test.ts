import { describe, expect, it } from 'vitest';
import { decodeKeys } from '../../src/dashboard/input.js';
import { handleKey, openAdopt, type Action, type Key } from '../../src/dashboard/keys.js';
import type { Ui } from '../../src/dashboard/model.js';
import { fleet, HOME, ui } from './rows.js';

const k = (c: string): Key => ({ name: 'char', char: c });
const named = (name: Exclude<Key['name'], 'char'>): Key => ({ name }) as Key;

/** Presses keys in order; returns the final UI and every action taken. */
function press(start: Ui, ...keys: (Key | string)[]): { ui: Ui; actions: Action[] } {
  let state = start;
  const actions: Action[] = [];
  for (const key of keys.flatMap((x) => (typeof x === 'string' ? Array.from(x).map(k) : [x]))) {
    const result = handleKey(state, key, fleet, HOME);
    state = result.ui;
    if (result.action) actions.push(result.action);
  }
  return { ui: state, actions };
}

// Display order by state: 1 (in use), 2 (running), 3 (idle), 4, 5, 6 (completed).
describe('key handling', () => {
  it('moves with arrows and j/k in display order, stopping at the ends', () => {
    expect(press(ui(), named('down'), 'j').ui.selected).toBe(3);
    expect(press(ui(), 'jjjjjjjjjj').ui.selected).toBe(6);
    expect(press(ui(), 'jj', named('up'), 'kkkk').ui.selected).toBe(1);
  });

  it.each([
    ['Enter switches to the task window', [named('enter')], { kind: 'select-window', id: 2 }],
    ['Space peeks', [' '], { kind: 'peek', id: 2 }],
    ['r reruns', ['r'], { kind: 'rerun', id: 2 }],
    ['X kills a running task', ['X'], { kind: 'kill', id: 2 }],
    ['m tags', ['m'], { kind: 'tag', id: 2 }],
    ['o lists the sessions to load', ['o'], { kind: 'list-sessions' }],
    ['a lists the panes running agents started by hand', ['a'], { kind: 'list-agent-panes' }],
    ['q goes back to the previous window', ['q'], { kind: 'last-window' }],
  ] as const)('%s', (_title, keys, action) => {
    expect(press(ui({ selected: 2 }), ...keys).actions).toEqual([action]);
  });

  it('adopts the chosen pane, adoptable ones offered first, and says why a refused one is not', () => {
    const choices = [
      { label: '%7 refused', paneId: '%7', refused: 'its claude (pid 12) runs as user 0, not as you' },
      { label: '%3 claude', paneId: '%3', refused: null },
      { label: '%4 codex', paneId: '%4', refused: null },
    ];
    const opened = openAdopt(ui(), choices);
    expect(opened.mode).toMatchObject({ kind: 'adopt', index: 0, choices: [{ paneId: '%3' }, { paneId: '%4' }, { paneId: '%7' }] });
    expect(press(opened, 'j', named('enter')).actions).toEqual([{ kind: 'adopt', paneId: '%4' }]);
    const refused = press(opened, 'jjj', named('enter'));
    expect(refused.actions).toEqual([]);
    expect(refused.ui.status).toBe('pane %7 cannot be adopted: its claude (pid 12) runs as user 0, not as you');
    expect(press(opened, named('escape')).ui.mode).toEqual({ kind: 'list' });
    expect(openAdopt(ui(), []).status).toBe('no pane runs an agent started by hand');
  });

  it('X removes a finished task', () => {
    expect(press(ui({ selected: 5 }), 'X').actions).toEqual([{ kind: 'rm', id: 5 }]);
  });

  it('lowercase x does nothing (X only)', () => {
    expect(press(ui({ selected: 2 }), 'x').actions).toEqual([]);
  });

  it.each([
    ['R renames', 'R', 'reviewer', { kind: 'rename', id: 2, name: 'reviewer' }],
    ['g sets the group', 'g', 'api', { kind: 'group', id: 2, group: 'api' }],
    ['w saves under a name', 'w', 'work', { kind: 'save', name: 'work' }],
    ['n starts a command in the fleet directory', 'n', 'npm test', { kind: 'run', command: 'npm test' }],
  ] as const)('%s through a prompt that starts empty', (_title, opener, text, action) => {
    const opened = press(ui({ selected: 2 }), opener).ui;
    expect(opened.mode).toMatchObject({ kind: 'prompt', text: '' });
    const typed = press(opened, `${text}x`, named('backspace'));
    expect(typed.ui.mode).toMatchObject({ text });
    const done = press(typed.ui, named('enter'));
    expect(done.actions).toEqual([action]);
    expect(done.ui.mode.kind).toBe('list');
  });

  it('keys typed into a prompt are text, not commands', () => {
    expect(press(ui({ selected: 2 }), 'R', 'Qqrx').actions).toEqual([]);
  });

  it('Esc cancels a prompt; an empty save name or command does nothing', () => {
    expect(press(ui({ selected: 2 }), 'Rabc', named('escape')).actions).toEqual([]);
    expect(press(ui(), 'w', named('enter')).actions).toEqual([]);
    expect(press(ui(), 'n  ', named('enter')).actions).toEqual([]);
  });

  it('an empty rename clears the name', () => {
    expect(press(ui({ selected: 2 }), 'R', named('enter')).actions).toEqual([{ kind: 'rename', id: 2, name: '' }]);
  });

  it('/ finds by name, command or group; Enter selects the first match and closes', () => {
    const found = press(ui({ selected: 1 }), '/', 'back', named('enter'));
    expect(found.ui.mode.kind).toBe('list');
    expect(found.ui.selected).toBe(3);
    expect(found.actions).toEqual([]);
    expect(press(ui({ selected: 1 }), '/web', named('enter')).ui.selected).toBe(2);
  });

  it('Esc cancels the finder and restores the selection', () => {
    const cancelled = press(ui({ selected: 1 }), '/grok', named('escape'));
    expect(cancelled.ui).toMatchObject({ selected: 1, mode: { kind: 'list' } });
  });

  it('a finder with no match leaves the selection and says so', () => {
    const none = press(ui({ selected: 4 }), '/gzz', named('enter'));
    expect(none.ui.selected).toBe(4);
    expect(none.ui.status).toContain("nothing matches 'gzz'");
  });

  it('s cycles grouping state → directory → group → state and keeps the selection', () => {
    const seen = [press(ui({ selected: 5 }), 's'), press(ui({ selected: 5 }), 'ss'), press(ui({ selected: 5 }), 'sss')];
    expect(seen.map((s) => s.ui.grouping)).toEqual(['directory', 'group', 'state']);
    expect(seen.every((s) => s.ui.selected === 5)).toBe(true);
  });

  it('? shows help until any key', () => {
    const help = press(ui(), '?');
    expect(help.ui.mode.kind).toBe('help');
    const closed = press(help.ui, 'r');
    expect(closed.ui.mode.kind).toBe('list');
    expect(closed.actions).toEqual([]);
  });

  it('Q asks first; y quits, anything else does not', () => {
    expect(press(ui(), 'Q').actions).toEqual([]);
    expect(press(ui(), 'Q').ui.mode.kind).toBe('confirm-quit');
    expect(press(ui(), 'Qy').actions).toEqual([{ kind: 'quit' }]);
    expect(press(ui(), 'Qn').actions).toEqual([]);
    expect(press(ui(), 'Q', named('escape')).ui.mode.kind).toBe('list');
  });

  it('Ctrl-C does not stop the fleet; it says which keys do', () => {
    const result = press(ui(), named('interrupt'));
    expect(result.actions).toEqual([]);
    expect(result.ui.status).toMatch(/Q stops the fleet/);
  });

  it('the load chooser moves and loads the chosen entry', () => {
    const choices = [{ label: 'a', file: '/a.json' }, { label: 'b', file: '/b.json' }];
    const start = ui({ mode: { kind: 'load', choices, index: 0 } });
    expect(press(start, 'jj', named('enter')).actions).toEqual([{ kind: 'load', choice: choices[1] }]);
    expect(press(start, named('escape')).actions).toEqual([]);
  });

  it('actions on a task need one: an empty fleet says so', () => {
    const result = handleKey(ui(), k('r'), [], HOME);
    expect(result.action).toBeNull();
    expect(result.ui.status).toBe('no task selected');
  });

  it('selects the row now at the same place when the selected task is gone', () => {
    const gone = ui({ selected: 99, index: 1 });
    expect(press(gone, 'r').actions).toEqual([{ kind: 'rerun', id: 2 }]);
  });
});

describe('decoding raw terminal input', () => {
  it.each([
    ['arrows in normal mode', '\x1b[A\x1b[B', [{ name: 'up' }, { name: 'down' }]],
    ['arrows in application mode', '\x1bOA\x1bOD', [{ name: 'up' }, { name: 'left' }]],
    ['Enter as CR', '\r', [{ name: 'enter' }]],
    ['Backspace as DEL and BS', '\x7f\b', [{ name: 'backspace' }, { name: 'backspace' }]],
    ['a lone Esc', '\x1b', [{ name: 'escape' }]],
    ['Ctrl-C', '\x03', [{ name: 'interrupt' }]],
    ['text, wide characters included', 'a世', [{ name: 'char', char: 'a' }, { name: 'char', char: '世' }]],
    ['an unknown sequence, skipped whole', '\x1b[15~x', [{ name: 'char', char: 'x' }]],
    ['other control characters, ignored', '\x01\x02', []],
  ])('%s', (_title, data, keys) => {
    expect(decodeKeys(data)).toEqual(keys);
  });
});
