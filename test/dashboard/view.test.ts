import { describe, expect, it } from 'vitest';
import { cellWidth } from '../../src/dashboard/cells.js';
import { latestLine, rowOf } from '../../src/dashboard/model.js';
import { render, type Frame } from '../../src/dashboard/view.js';
import type { Task } from '../../src/fleet/supervisor/task.js';
import { NO_ATTENTION } from '../../src/harness/index.js';
import { fleet, HOME, row, ui } from './rows.js';

const frame = (fields: Partial<Frame>): Frame => ({ rows: fleet, ui: ui(), home: HOME, width: 72, height: 12, ...fields });
const screen = (fields: Partial<Frame>) => render(frame(fields)).lines;

function expectExactSize(lines: string[], width: number, height: number): void {
  expect(lines).toHaveLength(height);
  for (const line of lines) expect(cellWidth(line)).toBe(width);
}

describe('the dashboard view', () => {
  it('groups by state: in use, running, idle, completed, with a header and the status line', () => {
    const lines = screen({ ui: ui({ selected: 2, status: 'task 4 exited with status 0' }) });
    expect(lines.map((l) => l.trimEnd())).toEqual([
      'fleetcom   2 running · 1 idle · 3 done                 by state · ? help',
      'In use (1)',
      '  ✻◆ claude     ● Edited src/api/routes.ts (+12 -3)                   4s',
      'Running (1)',
      '› ✻  web        ready in 412 ms                                       1m',
      'Idle (1)',
      '  ∙  codex      › Ask Codex to do anything                           12s',
      'Completed (3)',
      '  ✓  npm test   Tests  42 passed (42)                                 2h',
      '  ✗  grok       error: rate limited                                   5m',
      '  ✗  sleep 100                                                        1m',
      'task 4 exited with status 0',
    ]);
    expectExactSize(lines, 72, 12);
  });

  it('groups by directory, with HOME written ~, in order of first appearance', () => {
    const lines = screen({ ui: ui({ grouping: 'directory' }) });
    expect(lines[0]).toContain('by directory');
    expect(lines.filter((l) => !l.startsWith(' ') && !l.startsWith('›')).map((l) => l.trimEnd()).slice(1, 4)).toEqual([
      '~/src/app (4)', '~/src/web (1)', '/srv/data (1)',
    ]);
  });

  it('groups by custom group, Unassigned last', () => {
    const lines = screen({ ui: ui({ grouping: 'group' }) });
    expect(lines.filter((l) => /^\S.*\(\d+\)$/.test(l.trimEnd())).map((l) => l.trimEnd())).toEqual([
      'frontend (1)', 'backend (2)', 'Unassigned (3)',
    ]);
  });

  it('cuts a long label and a long output line with … and keeps the age at the right edge', () => {
    const long = row(1, { command: `claude --model opus ${'x'.repeat(80)}`, line: `${'y'.repeat(100)} end`, ageMs: 59_000 });
    const lines = screen({ rows: [long], width: 60, height: 4 });
    expect(lines[2]).toMatch(/^› ✻  claude --model opus…  y+… 59s$/u);
    expectExactSize(lines, 60, 4);
  });

  it('measures wide characters and combining marks in cells, not code units', () => {
    const wide = row(1, { name: '日本語のタスク名前がとても長い', command: 'x', line: 'résumé 🚀 デプロイ完了しました、次の段階へ進みます' });
    const lines = screen({ rows: [wide], width: 60, height: 4 });
    expectExactSize(lines, 60, 4);
    expect(lines[2]).toContain('…');
    expect(lines[2]?.endsWith(' 3s')).toBe(true);
  });

  it.each([[30, 8], [24, 6], [12, 5], [5, 4], [1, 3]])('fits a narrow pane of %i×%i exactly, selection still shown', (width, height) => {
    const result = render(frame({ width, height, ui: ui({ selected: 6 }) }));
    expectExactSize(result.lines, width, height);
    const selected = result.lines[result.styles.indexOf('selected')];
    // Below 60 columns the one-line-per-task layout: its prefix has no spaces to spare.
    if (width >= 12) expect(selected).toMatch(/^›✗/);
    expect(result.visible).toContain(6);
  });

  it('shows a pane of one or two lines without failing', () => {
    expectExactSize(screen({ height: 1 }), 72, 1);
    expectExactSize(screen({ height: 2 }), 72, 2);
  });

  it('scrolls to keep the selection on screen and reports only the rows shown', () => {
    const many = Array.from({ length: 40 }, (_, i) => row(i + 1));
    const top = render(frame({ rows: many, height: 10, ui: ui({ selected: 2 }) }));
    expect(top.visible).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const bottom = render(frame({ rows: many, height: 10, ui: ui({ selected: 40, scroll: top.scroll }) }));
    expect(bottom.visible.at(-1)).toBe(40);
    expect(bottom.visible).toHaveLength(8);
    const back = render(frame({ rows: many, height: 10, ui: ui({ selected: 38, scroll: bottom.scroll }) }));
    expect(back.scroll).toBe(bottom.scroll);
  });

  it('shows the prompt in the status line, starting empty', () => {
    const lines = screen({ ui: ui({ mode: { kind: 'prompt', purpose: 'rename', text: '', taskId: 3 } }) });
    expect(lines.at(-1)?.trimEnd()).toBe('Rename task 3: █  (Enter ok · Esc cancel)');
  });

  it('filters rows while finding, by name, command or group', () => {
    const restore = { selected: null, index: 0 };
    const byGroup = render(frame({ ui: ui({ mode: { kind: 'find', text: 'BACK', restore } }) }));
    expect(byGroup.visible).toEqual([3, 4]);
    expect(byGroup.lines.at(-1)?.trimEnd()).toBe('/BACK█  (Enter select · Esc cancel)');
    expect(render(frame({ ui: ui({ mode: { kind: 'find', text: 'web', restore } }) })).visible).toEqual([2]);
    expect(screen({ ui: ui({ mode: { kind: 'find', text: 'zzz', restore } }) })[1]?.trim()).toBe('No task matches.');
  });

  it('shows help, the load chooser and the quit confirmation', () => {
    const help = screen({ ui: ui({ mode: { kind: 'help' } }), height: 16 }).join('\n');
    expect(help).toContain('Q   quit');
    expect(help).toContain('f        finish a worktree task');
    const load = screen({ ui: ui({ mode: { kind: 'load', choices: [{ label: 'work   2 task(s)', file: '/a' }, { label: 'autosaved', file: '/b' }], index: 1 } }) });
    expect(load.slice(1, 3).map((l) => l.trimEnd())).toEqual(['  work   2 task(s)', '› autosaved']);
    expect(screen({ ui: ui({ mode: { kind: 'confirm-quit' } }) }).at(-1)).toMatch(/^Quit: stop every task and close the fleet\? \(y\/n\)/);
  });

  it('says how to start when the fleet is empty', () => {
    const lines = screen({ rows: [] });
    expect(lines[0]).toMatch(/^fleetcom {3}0 running · 0 idle · 0 done/);
    expect(lines[1]).toContain('press n');
  });
});

describe('row data', () => {
  it.each([
    ['the last non-blank line', 'one\ntwo\n\n   \n', 'two'],
    ["never tmux's Pane is dead notice", 'built ok\n\nPane is dead (status 0, Sun Nov 29 19:30:00 2026)', 'built ok'],
    ['nothing for a blank screen', '\n\n', ''],
  ])('takes %s', (_title, text, line) => {
    expect(latestLine(text)).toBe(line);
  });

  it('ages an exited task from its exit and a running one from its last output', () => {
    const base = { id: 1, run: 0, cwd: '/w', command: 'x', name: null, group: null, tagged: false, endedAt: null, lastOutputAt: 1_000, exitStatus: null, windowId: '@1', paneId: '%1' };
    expect(rowOf({ ...base } as unknown as Task, 4_000, '', NO_ATTENTION).ageMs).toBe(3_000);
    expect(rowOf({ ...base, endedAt: 2_000, exitStatus: 0 } as unknown as Task, 4_000, '', NO_ATTENTION)).toMatchObject({ state: 'exited', ageMs: 2_000 });
    expect(rowOf({ ...base } as unknown as Task, 20_000, '', NO_ATTENTION).state).toBe('idle');
  });

  it('says when a claude parked its conversation as a live background job, and not once it ended', () => {
    const base = { id: 1, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, endedAt: 2_000, lastOutputAt: 1_000, exitStatus: null, windowId: '@1', paneId: '%1' };
    const job = { id: 'ca7b8c43', sessionId: null, from: null, alive: true, home: '/h', program: 'claude' };
    expect(rowOf({ ...base, parkedJob: job } as unknown as Task, 4_000, '1 agent will keep running', NO_ATTENTION).line).toBe('⇢ parked as job ca7b8c43 (rerun attaches) · 1 agent will keep running');
    expect(rowOf({ ...base, parkedJob: { ...job, alive: false } } as unknown as Task, 4_000, 'x', NO_ATTENTION).line).toBe('x');
  });
});
