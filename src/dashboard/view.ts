// The dashboard's screen as a pure function: rows, UI state and the pane's size → exactly
// `height` lines of exactly `width` cells, with a style per line (the loop turns styles into
// escape codes; the text itself never holds any).
//
//   fleetcom   2 running · 1 idle · 3 done                      by state · ? help
//   Running (2)
//   › ✻◆ claude          ● Edited src/api.ts                          3s
//     ✻  npm run dev     ready in 412 ms                              1m
import { cellWidth, fit, fitRight } from './cells.js';
import { TAGGED_GLYPH } from '../fleet/supervisor/glyphs.js';
import { formatAge } from '../format-age.js';
import type { HostStatus } from './host-rows.js';
import { glyphOf, historyShown, shownSections, selectedRow, type Mode, type Row, type Ui } from './model.js';
import { NARROW_HELP, NARROW_WIDTH, narrowHeader, narrowLabel, narrowRowLine } from './view-narrow.js';

export type LineStyle = 'plain' | 'header' | 'title' | 'selected' | 'status' | 'waiting' | 'permission';

export interface Frame {
  rows: readonly Row[];
  ui: Ui;
  /** HOME, for `~` in directory titles. */
  home: string;
  width: number;
  height: number;
  /** The hosts whose sections follow this machine's, with what each answered (none: no hosts). */
  hosts?: readonly HostStatus[];
}

export interface Screen {
  lines: string[];
  styles: LineStyle[];
  /** Ids of the tasks whose rows are on screen (the loop captures only their panes). */
  visible: number[];
  /** The scroll offset used (kept by the loop for the next frame). */
  scroll: number;
}

const GROUPING_TITLE = { state: 'by state', directory: 'by directory', group: 'by group' } as const;

export const HELP: readonly string[] = [
  '↑↓ j k   move                     r   rerun a finished task',
  'Enter    go to the task\'s window   X   kill a running task / remove a finished one',
  'Space    peek at its screen       m   tag / untag as in use',
  'n        new command              R   rename      g   set group',
  '/        find by name, command    w   save the fleet as a session',
  '         or group                 o   load a session or recovery snapshot',
  's        cycle grouping           q   back to the previous window',
  'a        adopt an agent started by hand  h   past conversations (history)',
  'f        finish a worktree task: its diff and plan, then on y merge it and clean up',
  'N        next task that needs you (a permission first, then the longest waiting)',
  '?        this help                Q   quit: stop every task (fleetcom down)',
  '',
  'Press any key to close this help.',
];

export function headerCounts(rows: readonly Row[]): string {
  const count = (state: Row['state']) => rows.filter((r) => r.state === state).length;
  return `${count('running')} running · ${count('idle')} idle · ${count('exited')} done`;
}

/** Left and right text on one line of `width` cells; the right side goes when both do not fit. */
function spread(left: string, right: string, width: number): string {
  const rw = cellWidth(right);
  if (cellWidth(left) + 1 + rw > width) return fit(left, width);
  return fit(left, width - rw - 1) + ' ' + right;
}

function rowLine(row: Row, selected: boolean, labelWidth: number, width: number): string {
  const prefix = `${selected ? '›' : ' '} ${glyphOf(row)}${row.tagged ? TAGGED_GLYPH : ' '} `;
  const age = ` ${fitRight(formatAge(row.ageMs), 3)}`;
  const middle = width - cellWidth(prefix) - cellWidth(age);
  if (middle < 1) return fit(prefix + row.label, width);
  const lw = middle >= 30 ? Math.min(labelWidth, Math.max(12, Math.floor(middle * 0.4))) : middle;
  const rest = middle - lw - 2;
  const text = rest >= 1 ? `${fit(row.label, lw)}  ${fit(row.line, rest)}` : fit(row.label, middle);
  return prefix + text + age;
}

function statusText(mode: Mode, ui: Ui): string {
  switch (mode.kind) {
    case 'prompt': {
      const what = { new: 'New command', rename: `Rename task ${mode.taskId}`, group: `Group of task ${mode.taskId}`, save: 'Save the fleet as' }[mode.purpose];
      return `${what}: ${mode.text}█  (Enter ok · Esc cancel)`;
    }
    case 'find':
      return `/${mode.text}█  (Enter select · Esc cancel)`;
    case 'confirm-quit':
      return 'Quit: stop every task and close the fleet? (y/n)';
    case 'load':
      return 'Load: ↑↓ choose · Enter load · Esc cancel';
    case 'adopt':
      return 'Adopt: ↑↓ choose · Enter adopt · Esc cancel';
    case 'history':
      return `History of ${mode.where}: ${mode.text}█  (type to filter · ↑↓ choose · Enter resume · Esc cancel)`;
    case 'finish':
      return mode.ok ? `Finish task ${mode.taskId} as planned above? (y/n)` : `Task ${mode.taskId} cannot be finished (see above): any key goes back`;
    default:
      return ui.status;
  }
}

interface Body {
  lines: string[];
  styles: LineStyle[];
  ids: (number | null)[];
  selectedLine: number;
}

function listBody(frame: Frame, width: number): Body {
  const { rows, ui, home } = frame;
  const narrow = width < NARROW_WIDTH;
  const shown = shownSections(rows, ui, home);
  const order = shown.flatMap((s) => s.rows);
  const chosen = selectedRow(order, ui);
  const labelWidth = Math.max(0, ...rows.map((r) => cellWidth(narrow ? narrowLabel(r) : r.label)));
  const body: Body = { lines: [], styles: [], ids: [], selectedLine: 0 };
  const push = (line: string, style: LineStyle, id: number | null) => {
    body.lines.push(line);
    body.styles.push(style);
    body.ids.push(id);
  };
  if (rows.length === 0) push(fit('  No tasks yet: press n to start a command, o to load a session.', width), 'plain', null);
  else if (order.length === 0) push(fit('  No task matches.', width), 'plain', null);
  const pushRows = (section: { rows: readonly Row[] } | undefined) => {
    for (const row of section?.rows ?? []) {
      const selected = row === chosen;
      if (selected) body.selectedLine = body.lines.length;
      const style: LineStyle = selected ? 'selected' : row.attention === 'permission' || row.attention === 'waiting' ? row.attention : 'plain';
      // A host's row has no pane here: the loop reads no screen for it.
      const line = narrow ? narrowRowLine(row, selected, labelWidth, width) : rowLine(row, selected, labelWidth, width);
      push(line, style, row.remote ? null : row.id);
    }
  };
  for (const section of shown.filter((s) => s.host === undefined)) {
    if (!narrow) push(fit(`${section.title} (${section.rows.length})`, width), 'title', null);
    pushRows(section);
  }
  // Every host has its line, answered or not: the reason ssh gave for one that did not
  // (narrow: only then, its tasks' lines name it).
  for (const host of frame.hosts ?? []) {
    const section = shown.find((s) => s.host === host.host);
    if (!narrow || host.note !== null) {
      push(fit(host.note === null ? `${host.host} (${section?.rows.length ?? 0})` : `${host.host}: ${host.note}`, width), 'title', null);
    }
    pushRows(section);
  }
  return body;
}

function body(frame: Frame, width: number): Body {
  const mode = frame.ui.mode;
  if (mode.kind === 'finish') {
    const lines = mode.lines.map((l) => fit(`  ${l}`, width));
    return { lines, styles: lines.map(() => 'plain'), ids: lines.map(() => null), selectedLine: 0 };
  }
  if (mode.kind === 'help') {
    const lines = (width < NARROW_WIDTH ? NARROW_HELP : HELP).map((l) => fit(`  ${l}`, width));
    return { lines, styles: lines.map(() => 'plain'), ids: lines.map(() => null), selectedLine: 0 };
  }
  if (mode.kind === 'load' || mode.kind === 'adopt') {
    const lines = mode.choices.length === 0
      ? [fit('  No saved sessions or recovery snapshots.', width)]
      : mode.choices.map((c, i) => fit(`${i === mode.index ? '›' : ' '} ${c.label}`, width));
    const styles = lines.map((_, i): LineStyle => (i === mode.index && mode.choices.length > 0 ? 'selected' : 'plain'));
    return { lines, styles, ids: lines.map(() => null), selectedLine: mode.index };
  }
  if (mode.kind === 'history') {
    const shown = historyShown(mode.choices, mode.text);
    const index = Math.min(mode.index, Math.max(0, shown.length - 1));
    const lines = shown.length === 0 ? [fit('  No conversation matches.', width)] : shown.map((c, i) => fit(`${i === index ? '›' : ' '} ${c.label}`, width));
    const styles = lines.map((_, i): LineStyle => (i === index && shown.length > 0 ? 'selected' : 'plain'));
    return { lines, styles, ids: lines.map(() => null), selectedLine: index };
  }
  return listBody(frame, width);
}

export function render(frame: Frame): Screen {
  const width = Math.max(1, frame.width);
  const height = Math.max(1, frame.height);
  const { ui, rows } = frame;
  const header = width < NARROW_WIDTH ? narrowHeader(rows, width)
    : spread(`fleetcom   ${headerCounts(rows)}`, `${GROUPING_TITLE[ui.grouping]} · ? help`, width);
  if (height < 3) {
    const lines = [header, fit(statusText(ui.mode, ui), width)].slice(0, height);
    return { lines, styles: (['header', 'status'] as const).slice(0, height), visible: [], scroll: 0 };
  }
  const b = body(frame, width);
  const room = height - 2;
  const maxScroll = Math.max(0, b.lines.length - room);
  const scroll = Math.min(maxScroll, Math.max(0, b.selectedLine - room + 1, Math.min(ui.scroll, b.selectedLine)));
  const shown = b.lines.slice(scroll, scroll + room);
  const blank = ' '.repeat(width);
  const lines = [header, ...shown, ...Array<string>(room - shown.length).fill(blank), fit(statusText(ui.mode, ui), width)];
  const styles: LineStyle[] = ['header', ...b.styles.slice(scroll, scroll + room), ...Array<LineStyle>(room - shown.length).fill('plain'), 'status'];
  const visible = b.ids.slice(scroll, scroll + room).filter((id): id is number => id !== null);
  return { lines, styles, visible, scroll };
}
