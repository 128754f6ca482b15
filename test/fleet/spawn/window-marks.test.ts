import { describe, expect, it } from 'vitest';
import type { Launch } from '../../../src/fleet/spawn/launch.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import type { FleetTmux } from '../../../src/fleet/tmux/tmux-port.js';
import { ATTENTION_OPTION, WindowMarks } from '../../../src/fleet/spawn/window-marks.js';
import { decodeSpec, SPEC_OPTION } from '../../../src/fleet/spawn/window-spec.js';

const NOW = Date.UTC(2026, 10, 30, 18, 0, 0);

function task(fields: Partial<Task> = {}): Task {
  return {
    id: 3, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, harness: 'claude', pinnedId: null,
    targetId: null, captureFile: null, home: '/h', spawnedAt: NOW, windowId: '@7', paneId: '%9',
    exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [], env: {}, lastOutputAt: NOW, captured: null,
    ...fields,
  };
}

/** tmux as the marks see it: every call recorded as the arguments it got. */
function marks() {
  const calls: Array<[string, ...unknown[]]> = [];
  const record = (name: string) => async (...args: unknown[]) => void calls.push([name, ...args]);
  const tmux = {
    setWindowOptions: record('setWindowOptions'), setWindowOption: record('setWindowOption'),
    unsetWindowOption: record('unsetWindowOption'), renameWindow: record('renameWindow'),
  } as Partial<FleetTmux> as FleetTmux;
  return { calls, marks: new WindowMarks({ tmux, controlSocket: '/run/s', paneDiedHook: 'hook', now: () => NOW }) };
}

const launch = { windowEnv: {}, argv: ['claude'], path: undefined } as unknown as Launch;

describe("a task window's marks", () => {
  it("announce a rerun's run and record in one tmux call, before the run starts", async () => {
    const { calls, marks: m } = marks();
    await m.announceRun(task({ run: 2, command: "claude --resume 'x'" }));
    expect(calls).toHaveLength(1);
    const [name, options] = calls[0]!;
    expect(name).toBe('setWindowOptions');
    const [run, spec] = options as Array<[string, string, string]>;
    expect(run).toEqual(['@7', '@fleetcom-run', '2']);
    expect(spec?.[1]).toBe(SPEC_OPTION);
    expect(decodeSpec(spec?.[2], 3, 2)?.command).toBe("claude --resume 'x'");
  });

  it("announce a rerun's record over 2 KiB with its run too, and a new window's only after it is made", async () => {
    const { calls, marks: m } = marks();
    const big = task({ run: 1, command: `sleep 600 # ${'x'.repeat(3_000)}` });
    await m.announceRun(big);
    expect((calls[0]![1] as Array<[string, string, string]>).map(([, option]) => option)).toEqual(['@fleetcom-run', SPEC_OPTION]);
    expect(decodeSpec((calls[0]![1] as Array<[string, string, string]>)[1]![2], 3, 1)?.command).toBe(big.command);
    const fresh = task({ id: 4, command: big.command });
    expect(m.window(fresh, launch, NOW).windowOptions[SPEC_OPTION]).toBeUndefined();
    m.syncRecords([fresh]);
    expect(calls[1]).toEqual(['setWindowOptions', [['@7', SPEC_OPTION, expect.any(String)]]]);
  });

  it('carry the record in the new window, and set records again only for tasks that changed', async () => {
    const { calls, marks: m } = marks();
    const t = task();
    const window = m.window(t, launch, NOW);
    expect(window.windowOptions).toMatchObject({ '@fleetcom-task': '3', '@fleetcom-socket': '/run/s' });
    expect(decodeSpec(window.windowOptions[SPEC_OPTION], 3, 0)?.command).toBe('claude');
    expect(window.windowHooks).toEqual({ 'pane-died': 'hook' });
    m.syncRecords([t]);
    expect(calls).toEqual([]); // the window was made with it
    t.name = 'reviewer';
    m.syncRecords([t]);
    expect(calls.map(([name]) => name)).toEqual(['setWindowOptions']);
  });

  it('rename a window only when its glyph or label changed, and never a closed one', async () => {
    const { calls, marks: m } = marks();
    const t = task();
    await m.rename(t, null);
    await m.rename(t, null);
    await m.rename(t, 'waiting');
    await m.rename({ ...t, windowId: '' }, 'permission');
    expect(calls.map(([name]) => name)).toEqual(['renameWindow', 'renameWindow']);
    m.forget(t.id);
    await m.rename(t, 'waiting');
    expect(calls).toHaveLength(3); // forgotten: the name is given again
  });

  it('set the attention option for status lines, and unset it when the task has none', async () => {
    const { calls, marks: m } = marks();
    await m.showAttention(task(), 'permission');
    await m.showAttention(task(), null);
    expect(calls).toEqual([['setWindowOption', '@7', ATTENTION_OPTION, 'permission'], ['unsetWindowOption', '@7', ATTENTION_OPTION]]);
  });
});
