import { describe, expect, it } from 'vitest';
import { handleKey, openHistory, type Key } from '../../src/dashboard/keys.js';
import type { HistoryChoice, Ui } from '../../src/dashboard/model.js';
import { fleet, HOME, ui } from './rows.js';

// `h`: the chooser of past conversations is pure key handling: typing filters (letters never
// move), ↑↓ choose among what is left, Enter resumes or goes to the task holding it.

const choice = (key: string, text: string, heldByTask: number | null = null): HistoryChoice => ({ label: text, key, heldByTask, text: text.toLowerCase() });
const CHOICES = [choice('a', 'claude fix the Login bug'), choice('b', 'codex add a cache', 3), choice('c', 'gemini login page styles')];

function press(start: Ui, ...keys: Key[]) {
  let state = start;
  let action = null;
  for (const key of keys) ({ ui: state, action } = handleKey(state, key, fleet, HOME));
  return { ui: state, action };
}
const ch = (c: string): Key => ({ name: 'char', char: c });

describe('the dashboard history chooser', () => {
  it("h asks for the selected task's directory", () => {
    expect(handleKey(ui({ selected: 2 }), ch('h'), fleet, HOME).action).toEqual({ kind: 'list-history', cwd: `${HOME}/src/web` });
  });

  it('types to filter, case-insensitively, and Enter resumes the chosen one', () => {
    const open = openHistory(ui(), CHOICES, '~/src/app');
    const { ui: after, action } = press(open, ch('L'), ch('o'), ch('g'), { name: 'down' }, { name: 'enter' });
    expect(action).toEqual({ kind: 'resume-conversation', key: 'c' });
    expect(after.mode.kind).toBe('list');
    // j and k are text here, not moves.
    expect(press(open, ch('j')).ui.mode).toMatchObject({ kind: 'history', text: 'j' });
  });

  it('Enter on a conversation a task holds goes to that task; Esc cancels; nothing listed says so', () => {
    const open = openHistory(ui(), CHOICES, '~/src/app');
    expect(press(open, { name: 'down' }, { name: 'enter' }).action).toEqual({ kind: 'select-window', id: 3 });
    expect(press(open, { name: 'escape' }).ui.mode.kind).toBe('list');
    expect(press(open, ch('z'), ch('z'), { name: 'enter' }).action).toBeNull();
    expect(openHistory(ui(), [], '~/x').status).toBe('no past conversation in ~/x');
  });
});
