import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { adoptTasks } from '../../../src/fleet/adoption/adopt.js';
import { readState } from '../../../src/fleet/adoption/state-file.js';
import type { PaneInfo } from '../../../src/fleet/tmux/tmux-port.js';
import { decodeSpec, encodeSpec, WindowSpecs } from '../../../src/fleet/spawn/window-spec.js';

const record = {
  id: 3, run: 2, command: "claude --model 'x'", cwd: '/w/a b', name: '#web; x\u241e', group: 'g\n1', tagged: true, harness: 'claude' as const,
  pinnedId: '2d8f1c4e-3b7a-4c9e-8f1a-5b6c7d8e9f01', targetId: null, captureFile: '/cap/3-0.json', home: '/h', spawnedAt: 1000,
  exitHint: null, everHeld: ['a', 'b'],
};

function pane(fields: Partial<PaneInfo> = {}): PaneInfo {
  return {
    paneId: '%7', windowId: '@4', dead: false, exited: false, deadStatus: null, deadSignal: null, pid: 99, activity: 5000,
    task: '3', run: '2', socket: '/run/s.sock', windowName: 'rm -rf ~', ...fields,
  };
}

const input = (specs: Record<string, string>) => ({ socket: '/run/s.sock', env: { A: '1' }, cwd: '/adopter', now: 9000, specs: new Map(Object.entries(specs)) });

describe('the record a task window carries', () => {
  it('round-trips every field, whatever the name and command hold, in characters tmux leaves alone', () => {
    const spec = encodeSpec({ ...record, everHeld: Array.from({ length: 20 }, (_, i) => `id${i}`) });
    expect(spec).toMatch(/^[A-Za-z0-9_-]+$/);
    const back = decodeSpec(spec, 3, 2);
    expect(back).toMatchObject({ command: record.command, cwd: record.cwd, name: record.name, group: record.group, harness: 'claude' });
    expect(back?.everHeld).toHaveLength(8);
  });

  it.each([
    ['nothing', ''],
    ['not base64url', 'a#b'],
    ['JSON of another shape', Buffer.from('{"command":"touch /tmp/x"}').toString('base64url')],
    ['not JSON', Buffer.from('{"v":1,').toString('base64url')],
  ])('is no record when it is %s', (_, value) => {
    expect(decodeSpec(value, 3, 2)).toBeNull();
  });

  it("is no record for another task's window", () => {
    expect(decodeSpec(encodeSpec(record), 4, 2)).toBeNull();
  });

  it("is no record for another run of its task (a rerun's new record not set yet)", () => {
    expect(decodeSpec(encodeSpec(record), 3, 3)).toBeNull();
  });

  it('rides along in the call that makes the window up to 2 KiB; a bigger one waits for a later call', () => {
    const specs = new WindowSpecs();
    const small = { ...record, windowId: '' };
    const big = { ...record, id: 4, windowId: '', command: `sleep 600 # ${'x'.repeat(2_048)}` };
    expect(specs.inline(small)).toBe(encodeSpec(small));
    expect(specs.inline(big)).toBeNull();
    // Once tmux made its window, the next fleet change sets it (the small one is set already).
    expect(specs.changes([{ ...small, windowId: '@3' }, { ...big, windowId: '@4' }])).toEqual([['@4', '@fleetcom-spec', encodeSpec(big)]]);
  });

  it('is set again only when it changed, and never for a task with no command or no window', () => {
    const specs = new WindowSpecs();
    const task = { ...record, windowId: '@4' };
    expect(specs.changes([task])).toHaveLength(1);
    expect(specs.changes([task])).toEqual([]);
    expect(specs.changes([{ ...task, exitHint: 'x' }])).toHaveLength(1);
    expect(specs.changes([{ ...task, id: 5, command: null }, { ...task, id: 6, windowId: '' }])).toEqual([]);
  });
});

describe('adoption', () => {
  it('takes a task without a state.json record from its window, with the run tmux holds', () => {
    const { tasks, warnings, nextId } = adoptTasks([pane()], null, input({ '@4': encodeSpec(record) }));
    expect(tasks[0]).toMatchObject({ ...record, run: 2, windowId: '@4', paneId: '%7', env: { A: '1' }, endedAt: null, lastOutputAt: 5000 });
    expect(warnings[0]).toContain('adopted it from its window @4');
    expect(nextId).toBe(4);
  });

  it('keeps the id its capture last named: a capture swept with the runtime dir and state.json leaves the window to say it', () => {
    const captured = '3e9f2d5a-4c8b-4d0f-9a2b-6c7d8e9f0a12';
    const { tasks } = adoptTasks([pane()], null, input({ '@4': encodeSpec({ ...record, captured }) }));
    expect(tasks[0]?.captured).toBe(captured);
    // And from state.json's record, when it has one.
    const state = { version: 1 as const, tmuxSession: '$0', namespace: null, nextId: 4, tasks: [{ ...record, windowId: '@4', paneId: '%7', exitStatus: null, killed: false, endedAt: null, captured }] };
    expect(adoptTasks([pane()], state, input({})).tasks[0]?.captured).toBe(captured);
    // A window record from before this field: no captured id.
    expect(adoptTasks([pane()], null, input({ '@4': encodeSpec(record) })).tasks[0]?.captured).toBeNull();
  });

  it('adopts a window with neither as unknown: no command, its window name as the label', () => {
    const { tasks, warnings } = adoptTasks([pane()], null, input({}));
    expect(tasks[0]).toMatchObject({ id: 3, command: null, name: 'rm -rf ~', harness: null, cwd: '/adopter' });
    expect(warnings[0]).toContain('adopted as an unknown task');
  });

  it.each([
    ['its window was made and the record, too big to ride along, not set yet', {}],
    ["a rerun had set the window's new run but not yet its record", { '@4': encodeSpec({ ...record, run: 1 }) }],
  ])('never trusts a window caught between two tmux calls (%s): unknown, not its old command', (_, specs) => {
    const { tasks, warnings } = adoptTasks([pane()], null, input(specs));
    expect(tasks[0]).toMatchObject({ id: 3, run: 2, command: null, harness: null, captureFile: null });
    expect(warnings[0]).toContain('adopted as an unknown task');
  });

  it("takes state.json's record of the run the window holds over the window's own", () => {
    const state = { version: 1 as const, tmuxSession: '$0', namespace: null, nextId: 9, tasks: [{ ...record, command: 'from state', windowId: '@4', paneId: '%7', exitStatus: null, killed: false, endedAt: null }] };
    const { tasks, warnings, nextId } = adoptTasks([pane()], state, input({ '@4': encodeSpec(record) }));
    expect(tasks[0]).toMatchObject({ command: 'from state', run: 2 });
    expect(warnings).toEqual([]);
    expect(nextId).toBe(9);
  });

  it("adopts with state.json's record of an earlier run when the window has none for its run, and says so", () => {
    const state = { version: 1 as const, tmuxSession: '$0', namespace: null, nextId: 2, tasks: [{ ...record, run: 1, windowId: '@4', paneId: '%7', exitStatus: null, killed: false, endedAt: null }] };
    const { tasks, warnings } = adoptTasks([pane()], state, input({}));
    expect(tasks[0]).toMatchObject({ command: record.command, run: 2, exitHint: null, endedAt: null });
    expect(warnings).toEqual(["state.json knows task 3 at run 1 but its window runs 2: adopted with the record's command"]);
  });

  it('takes each task once, never a window whose task id is no positive safe integer, and numbers on after the highest', () => {
    // The tmux layer reads @fleetcom-task as digits only; these are the numbers it can still hold.
    const bad = ['0', '-1', '99999999999999999999'].map((task, i) => pane({ task, paneId: `%${20 + i}`, windowId: `@${20 + i}` }));
    const panes = [pane(), pane({ paneId: '%8', windowId: '@5' }), ...bad, pane({ task: '41', paneId: '%9', windowId: '@6' })];
    const { tasks, nextId } = adoptTasks(panes, { version: 1, tmuxSession: '$0', namespace: null, nextId: 9, tasks: [] }, input({ '@4': encodeSpec(record) }));
    expect(tasks.map((t) => [t.id, t.windowId, t.command])).toEqual([[3, '@4', record.command], [41, '@6', null]]);
    expect(nextId).toBe(42);
  });

  it("ignores windows of another fleet's socket", () => {
    expect(adoptTasks([pane({ socket: '/other.sock' })], null, input({ '@4': encodeSpec(record) })).tasks).toEqual([]);
  });
});

describe('a damaged state.json', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([['empty', ''], ['truncated', '{"version": 1, "tas'], ['of another shape', '{"version": 1}']])('is kept aside when %s, and reported', (_, text) => {
    dir = mkdtempSync(join(tmpdir(), 'fleetcom-state-'));
    const file = join(dir, 'state.json');
    writeFileSync(file, text);
    const warnings: string[] = [];
    expect(readState(file, (w) => warnings.push(w), new Date('2026-11-30T18:00:00.123Z'))).toBeNull();
    expect(readdirSync(dir)).toEqual(['state.json.corrupt-2026-11-30T18-00-00-123Z']);
    expect(readFileSync(join(dir, 'state.json.corrupt-2026-11-30T18-00-00-123Z'), 'utf8')).toBe(text);
    expect(warnings[0]).toMatch(/state\.json is damaged .*kept it as .*corrupt-2026/);
  });
});
