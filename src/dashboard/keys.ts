// Key handling as a pure function: (UI state, key, rows) → new UI state and at most one action
// for the loop to carry out. Nothing here talks to tmux or the supervisor.
import type { RemoteTarget } from '../remote/remote-tmux.js';
import { displayOrder, GROUPINGS, historyShown, nextRowNeedingYou, selectedRow, type LoadChoice, type Mode, type Row, type Ui } from './model.js';

export { openAdopt, openFinish, openHistory, openLoad } from './openers.js';

export type Key =
  | { name: 'up' | 'down' | 'left' | 'right' | 'enter' | 'escape' | 'backspace' | 'tab' | 'interrupt' }
  | { name: 'char'; char: string };

export type Action =
  | { kind: 'select-window'; id: number }
  | { kind: 'peek'; id: number }
  | { kind: 'run'; command: string }
  | { kind: 'rerun' | 'kill' | 'rm' | 'tag'; id: number }
  | { kind: 'rename'; id: number; name: string }
  | { kind: 'group'; id: number; group: string }
  | { kind: 'save'; name: string }
  | { kind: 'list-sessions' }
  | { kind: 'load'; choice: LoadChoice }
  | { kind: 'list-agent-panes' }
  | { kind: 'adopt'; paneId: string }
  /** `h`: the history of a directory (null: every directory of the fleet). */
  | { kind: 'list-history'; cwd: string | null }
  | { kind: 'resume-conversation'; key: string }
  /** `f`: the diff stat and finish plan of a worktree task; `y` on it: the finish. */
  | { kind: 'finish-plan'; id: number }
  | { kind: 'finish'; id: number; expect: { tip: string | null; intoTip: string | null } }
  | { kind: 'last-window' }
  | { kind: 'quit' }
  // A host's task: its window shown here over ssh, its screen peeked at, rerun there.
  | { kind: 'host-show' | 'host-peek' | 'host-rerun'; target: RemoteTarget };

/** Keys that act on a host's task (the others say how to do it with --host). */
const HOST_KEYS: Readonly<Record<string, 'host-show' | 'host-peek' | 'host-rerun'>> = { enter: 'host-show', ' ': 'host-peek', r: 'host-rerun' };
const HOST_COMMAND: Readonly<Record<string, string>> = { X: 'kill', m: 'tag', R: 'rename', g: 'group' };

export interface KeyResult {
  ui: Ui;
  action: Action | null;
}

const char = (key: Key): string | null => (key.name === 'char' ? key.char : null);

function move(ui: Ui, rows: readonly Row[], home: string, delta: number): Ui {
  const order = displayOrder(rows, ui, home);
  if (order.length === 0) return ui;
  const current = selectedRow(order, ui);
  const at = current ? order.indexOf(current) : 0;
  const index = Math.max(0, Math.min(order.length - 1, at + delta));
  return { ...ui, selected: order[index]?.id ?? null, index };
}

function select(ui: Ui, rows: readonly Row[], home: string, id: number): Ui {
  const index = displayOrder(rows, { ...ui, mode: { kind: 'list' } }, home).findIndex((r) => r.id === id);
  return { ...ui, selected: id, index: Math.max(0, index) };
}

const list = (ui: Ui, status = ui.status): Ui => ({ ...ui, mode: { kind: 'list' }, status });

/** Edits a line of text; null when the key is not an edit. */
function edit(text: string, key: Key): string | null {
  if (key.name === 'backspace') return Array.from(text).slice(0, -1).join('');
  const c = char(key);
  return c === null ? null : text + c;
}

function promptKey(ui: Ui, mode: Extract<Mode, { kind: 'prompt' }>, key: Key): KeyResult {
  if (key.name === 'escape' || key.name === 'interrupt') return { ui: list(ui, ''), action: null };
  if (key.name === 'enter') {
    const text = mode.text.trim();
    const done = list(ui, '');
    const id = mode.taskId ?? 0;
    switch (mode.purpose) {
      case 'new':
        return { ui: done, action: text === '' ? null : { kind: 'run', command: text } };
      case 'save':
        return { ui: done, action: text === '' ? null : { kind: 'save', name: text } };
      case 'rename':
        return { ui: done, action: { kind: 'rename', id, name: text } };
      case 'group':
        return { ui: done, action: { kind: 'group', id, group: text } };
    }
  }
  const text = edit(mode.text, key);
  return { ui: text === null ? ui : { ...ui, mode: { ...mode, text } }, action: null };
}

function findKey(ui: Ui, mode: Extract<Mode, { kind: 'find' }>, key: Key, rows: readonly Row[], home: string): KeyResult {
  const restored = (status: string): Ui => ({ ...list(ui, status), selected: mode.restore.selected, index: mode.restore.index });
  if (key.name === 'escape' || key.name === 'interrupt') return { ui: restored(ui.status), action: null };
  if (key.name === 'enter') {
    const first = displayOrder(rows, ui, home)[0];
    return { ui: first ? select(list(ui, ''), rows, home, first.id) : restored(`nothing matches '${mode.text}'`), action: null };
  }
  if (key.name === 'up' || key.name === 'down') return { ui: move(ui, rows, home, key.name === 'up' ? -1 : 1), action: null };
  const text = edit(mode.text, key);
  if (text === null) return { ui, action: null };
  const found: Ui = { ...ui, mode: { ...mode, text } };
  const first = displayOrder(rows, found, home)[0];
  return { ui: first ? { ...found, selected: first.id, index: 0 } : found, action: null };
}

function loadKey(ui: Ui, mode: Extract<Mode, { kind: 'load' }>, key: Key): KeyResult {
  const c = char(key);
  if (key.name === 'escape' || key.name === 'interrupt' || c === 'q') return { ui: list(ui), action: null };
  if (key.name === 'up' || c === 'k') return { ui: { ...ui, mode: { ...mode, index: Math.max(0, mode.index - 1) } }, action: null };
  if (key.name === 'down' || c === 'j') {
    return { ui: { ...ui, mode: { ...mode, index: Math.min(Math.max(0, mode.choices.length - 1), mode.index + 1) } }, action: null };
  }
  if (key.name === 'enter') {
    const choice = mode.choices[mode.index];
    return { ui: list(ui, choice ? `loading ${choice.label}…` : ''), action: choice ? { kind: 'load', choice } : null };
  }
  return { ui, action: null };
}

/** The adopt chooser: Enter adopts the pane (a refused one says why instead). */
function adoptKey(ui: Ui, mode: Extract<Mode, { kind: 'adopt' }>, key: Key): KeyResult {
  const c = char(key);
  if (key.name === 'escape' || key.name === 'interrupt' || c === 'q') return { ui: list(ui), action: null };
  const last = Math.max(0, mode.choices.length - 1);
  if (key.name === 'up' || c === 'k') return { ui: { ...ui, mode: { ...mode, index: Math.max(0, mode.index - 1) } }, action: null };
  if (key.name === 'down' || c === 'j') return { ui: { ...ui, mode: { ...mode, index: Math.min(last, mode.index + 1) } }, action: null };
  if (key.name !== 'enter') return { ui, action: null };
  const choice = mode.choices[mode.index];
  if (!choice) return { ui: list(ui), action: null };
  if (choice.refused !== null) return { ui: { ...ui, status: `pane ${choice.paneId} cannot be adopted: ${choice.refused}` }, action: null };
  return { ui: list(ui, `adopting pane ${choice.paneId}…`), action: { kind: 'adopt', paneId: choice.paneId } };
}

/**
 * The history chooser: typing filters (so letters never move), ↑↓ choose, Enter resumes the
 * conversation as a task or goes to the task that has it open.
 */
function historyKey(ui: Ui, mode: Extract<Mode, { kind: 'history' }>, key: Key): KeyResult {
  if (key.name === 'escape' || key.name === 'interrupt') return { ui: list(ui, ''), action: null };
  const shown = historyShown(mode.choices, mode.text);
  const last = Math.max(0, shown.length - 1);
  if (key.name === 'up') return { ui: { ...ui, mode: { ...mode, index: Math.max(0, mode.index - 1) } }, action: null };
  if (key.name === 'down') return { ui: { ...ui, mode: { ...mode, index: Math.min(last, mode.index + 1) } }, action: null };
  if (key.name === 'enter') {
    const choice = shown[Math.min(mode.index, last)];
    if (!choice) return { ui: { ...ui, status: 'no conversation matches' }, action: null };
    if (choice.heldByTask !== null) return { ui: list(ui, `task ${choice.heldByTask} has it open`), action: { kind: 'select-window', id: choice.heldByTask } };
    return { ui: list(ui, 'resuming…'), action: { kind: 'resume-conversation', key: choice.key } };
  }
  const text = edit(mode.text, key);
  return { ui: text === null ? ui : { ...ui, mode: { ...mode, text, index: 0 } }, action: null };
}

export function handleKey(ui: Ui, key: Key, rows: readonly Row[], home: string): KeyResult {
  const mode = ui.mode;
  const c = char(key);
  switch (mode.kind) {
    case 'prompt':
      return promptKey(ui, mode, key);
    case 'find':
      return findKey(ui, mode, key, rows, home);
    case 'load':
      return loadKey(ui, mode, key);
    case 'adopt':
      return adoptKey(ui, mode, key);
    case 'history':
      return historyKey(ui, mode, key);
    case 'help':
      return { ui: list(ui), action: null };
    case 'confirm-quit':
      return c === 'y' || c === 'Y' ? { ui: list(ui, 'stopping every task…'), action: { kind: 'quit' } } : { ui: list(ui, 'not quitting'), action: null };
    case 'finish':
      if (mode.ok && (c === 'y' || c === 'Y')) return { ui: list(ui, `finishing task ${mode.taskId}…`), action: { kind: 'finish', id: mode.taskId, expect: mode.expect } };
      return { ui: list(ui, mode.ok ? `task ${mode.taskId} not finished` : ''), action: null };
    case 'list':
      break;
  }
  if (key.name === 'up' || c === 'k') return { ui: move(ui, rows, home, -1), action: null };
  if (key.name === 'down' || c === 'j') return { ui: move(ui, rows, home, 1), action: null };
  if (key.name === 'interrupt') return { ui: { ...ui, status: 'q goes back to your previous window; Q stops the fleet' }, action: null };
  const row = selectedRow(displayOrder(rows, ui, home), ui);
  const prompt = (purpose: 'new' | 'rename' | 'group' | 'save', taskId: number | null): KeyResult => ({
    ui: { ...ui, mode: { kind: 'prompt', purpose, text: '', taskId } },
    action: null,
  });
  const onRow = (make: (r: Row) => KeyResult): KeyResult => (row ? make(row) : { ui: { ...ui, status: 'no task selected' }, action: null });
  const pinned = row ? { ...ui, selected: row.id } : ui;
  const remote = row?.remote;
  if (remote !== undefined) {
    const kind = HOST_KEYS[key.name === 'enter' ? 'enter' : (c ?? '')];
    if (kind !== undefined) return { ui: pinned, action: { kind, target: remote } };
    const command = HOST_COMMAND[c ?? ''];
    if (command !== undefined) {
      const rm = command === 'kill' && row?.state === 'exited' ? 'rm' : command;
      return { ui: { ...pinned, status: `a task of ${remote.host}: fleetcom --host ${remote.host} ${rm} ${remote.id}` }, action: null };
    }
  }
  if (key.name === 'enter') return onRow((r) => ({ ui: pinned, action: { kind: 'select-window', id: r.id } }));
  switch (c) {
    case ' ':
      return onRow((r) => ({ ui: pinned, action: { kind: 'peek', id: r.id } }));
    case 'n':
      return prompt('new', null);
    case 'r':
      return onRow((r) => ({ ui: pinned, action: { kind: 'rerun', id: r.id } }));
    case 'X':
      return onRow((r) => ({ ui: pinned, action: { kind: r.state === 'exited' ? 'rm' : 'kill', id: r.id } }));
    case 'm':
      return onRow((r) => ({ ui: pinned, action: { kind: 'tag', id: r.id } }));
    case 'f': {
      // git runs where the worktree is: a host's task is finished on that host.
      const say = (r: Row) => (r.remote ? `a task of ${r.remote.host}: finish it there (fleetcom finish ${r.remote.id}, git runs where its worktree is)` : `task ${r.id} runs in no worktree fleetcom made: nothing to finish`);
      return onRow((r) => (r.worktree && !r.remote
        ? { ui: { ...pinned, status: `reading the change and the plan of task ${r.id}…` }, action: { kind: 'finish-plan', id: r.id } }
        : { ui: { ...pinned, status: say(r) }, action: null }));
    }
    case 'R':
      return onRow((r) => prompt('rename', r.id));
    case 'g':
      return onRow((r) => prompt('group', r.id));
    case 'w':
      return prompt('save', null);
    case 'o':
      return { ui, action: { kind: 'list-sessions' } };
    case 'a':
      return { ui: { ...ui, status: 'looking for agents started by hand…' }, action: { kind: 'list-agent-panes' } };
    case 'h':
      return { ui: { ...ui, status: 'reading the agents\' stores…' }, action: { kind: 'list-history', cwd: row && !row.remote ? row.cwd : null } };
    case '/':
      return { ui: { ...ui, mode: { kind: 'find', text: '', restore: { selected: ui.selected, index: ui.index } } }, action: null };
    case 's': {
      const grouping = GROUPINGS[(GROUPINGS.indexOf(ui.grouping) + 1) % GROUPINGS.length] ?? 'state';
      const regrouped = { ...ui, grouping, scroll: 0 };
      return { ui: row ? select(regrouped, rows, home, row.id) : regrouped, action: null };
    }
    case 'N': {
      // Like prefix N in tmux: the next task that needs you, its window shown.
      const next = nextRowNeedingYou(rows, row);
      if (next === null) return { ui: { ...ui, status: 'no task needs you' }, action: null };
      const go: Action = next.remote ? { kind: 'host-show', target: next.remote } : { kind: 'select-window', id: next.id };
      return { ui: select(ui, rows, home, next.id), action: go };
    }
    case '?':
      return { ui: { ...ui, mode: { kind: 'help' } }, action: null };
    case 'q':
      return { ui, action: { kind: 'last-window' } };
    case 'Q':
      return { ui: { ...ui, mode: { kind: 'confirm-quit' } }, action: null };
    default:
      return { ui, action: null };
  }
}
