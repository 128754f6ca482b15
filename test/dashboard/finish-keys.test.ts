import { describe, expect, it } from 'vitest';
import { handleKey, openFinish, type Key } from '../../src/dashboard/keys.js';
import type { FinishShown, Row } from '../../src/dashboard/model.js';
import { render } from '../../src/dashboard/view.js';
import { HOME, row, ui } from './rows.js';

const k = (c: string): Key => ({ name: 'char', char: c });
const rows: Row[] = [row(1, { worktree: true }), row(2), row(3, { remote: { host: 'gpu', id: 9, windowId: '@9', paneId: '%9', tmuxSocket: null } })];
const shown = (ok: boolean): FinishShown => ({
  taskId: 1, ok, expect: { tip: 'a'.repeat(40), intoTip: 'b'.repeat(40) },
  lines: [' a.txt | 2 ++', '', 'task 1: finish branch feat-x into main (the branch it was based on) by merge'],
});

describe('the dashboard finish key', () => {
  it('f reads the plan of a worktree task, and says why not for a plain one or a host\'s', () => {
    expect(handleKey(ui({ selected: 1 }), k('f'), rows, HOME).action).toEqual({ kind: 'finish-plan', id: 1 });
    const plain = handleKey(ui({ selected: 2 }), k('f'), rows, HOME);
    expect(plain.action).toBeNull();
    expect(plain.ui.status).toBe('task 2 runs in no worktree fleetcom made: nothing to finish');
    const remote = handleKey(ui({ selected: 3 }), k('f'), rows, HOME);
    expect(remote.action).toBeNull();
    expect(remote.ui.status).toBe('a task of gpu: finish it there (fleetcom finish 9, git runs where its worktree is)');
  });

  it('y on the shown plan finishes with the tips it was made with; any other key goes back', () => {
    const open = openFinish(ui({ selected: 1 }), shown(true));
    expect(handleKey(open, k('y'), rows, HOME).action).toEqual({ kind: 'finish', id: 1, expect: shown(true).expect });
    const no = handleKey(open, k('n'), rows, HOME);
    expect(no.action).toBeNull();
    expect(no.ui.mode.kind).toBe('list');
    expect(handleKey(openFinish(ui(), shown(false)), k('y'), rows, HOME).action).toBeNull();
  });

  it('shows the diff stat and the plan, and asks', () => {
    const screen = render({ rows, ui: openFinish(ui(), shown(true)), home: HOME, width: 100, height: 8 });
    expect(screen.lines.slice(1, 4).map((l) => l.trimEnd())).toEqual(['   a.txt | 2 ++', '', '  task 1: finish branch feat-x into main (the branch it was based on) by merge']);
    expect(screen.lines.at(-1)).toMatch(/^Finish task 1 as planned above\? \(y\/n\)/);
    expect(render({ rows, ui: openFinish(ui(), shown(false)), home: HOME, width: 100, height: 8 }).lines.at(-1)).toMatch(/^Task 1 cannot be finished \(see above\): any key goes back/);
  });
});
