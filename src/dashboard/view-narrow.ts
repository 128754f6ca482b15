// The dashboard on a phone's ssh client (Termius, Blink, moshi): below NARROW_WIDTH columns,
// one line per task — its glyph, a short label, what it needs or said, its age — in the same
// order as the wide list (the tasks that need you first), so every key moves and acts the same.
// No section titles: on 40 columns every line is a task.
import { cellWidth, fit, fitRight } from './cells.js';
import { TAGGED_GLYPH } from '../fleet/supervisor/glyphs.js';
import { formatAge } from '../format-age.js';
import { glyphOf, type Row } from './model.js';

/** Narrower than this, the dashboard switches to one line per task. */
export const NARROW_WIDTH = 60;

/** The longest label before the rest of the line goes to what the task needs or said. */
const LABEL_MAX = 14;

export const NARROW_HELP: readonly string[] = [
  '↑↓ j k  move',
  'Enter   go to the task',
  'Space   peek at its screen',
  'N       next task needing you',
  'r       rerun   X kill/remove',
  'n       new     R rename',
  'm       tag     g group',
  '/       find    s grouping',
  'w       save    o load',
  'a       adopt   h history',
  'f       finish a worktree task',
  'q       back    Q quit (down)',
  '',
  'Any key closes this help.',
];

export function narrowHeader(rows: readonly Row[], width: number): string {
  const needs = rows.filter((r) => r.attention === 'waiting' || r.attention === 'permission').length;
  return fit(`fleetcom ${needs > 0 ? `${needs} need you · ` : ''}${rows.length} tasks · ?`, width);
}

/** A row's label on a narrow line: a host's task is `host:label`. */
export function narrowLabel(row: Row): string {
  return row.remote ? `${row.remote.host}:${row.label}` : row.label;
}

/** `›⚑◆label   what it needs  3s`, labels in a column `labelWidth` wide (at most LABEL_MAX). */
export function narrowRowLine(row: Row, selected: boolean, labelWidth: number, width: number): string {
  const prefix = `${selected ? '›' : ' '}${glyphOf(row)}${row.tagged ? TAGGED_GLYPH : ' '}`;
  const age = ` ${fitRight(formatAge(row.ageMs), 3)}`;
  const label = narrowLabel(row);
  const middle = width - cellWidth(prefix) - cellWidth(age);
  if (middle < 1) return fit(prefix + label, width);
  const lw = Math.min(labelWidth, LABEL_MAX, middle);
  const rest = middle - lw - 1;
  const text = rest >= 4 ? `${fit(label, lw)} ${fit(row.line, rest)}` : fit(label, middle);
  return prefix + text + age;
}
