import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeState, type PersistedState } from '../../../src/fleet/adoption/state-file.js';
import { knownRuntimeDirs, noteFleet, readFleet, readFleets } from '../../../src/fleet/lifecycle/fleet-index.js';
import { startTicks } from '../../../src/ownership/proc.js';
import { tempDir } from '../../harness/fixtures.js';

// Every fleet of a config dir: the runtime dirs `up` noted, each one's tasks from its state.json.

const task = (id: number, cwd: string, worktree: string | null) => ({
  id, run: 1, cwd, command: 'claude', name: null, group: null, tagged: false, harness: 'claude' as const,
  pinnedId: null, targetId: null, captureFile: null, home: null, spawnedAt: 1000, windowId: '@4', paneId: '%7',
  exitHint: null, exitStatus: null, killed: false, endedAt: null, everHeld: [],
  ...(worktree === null ? {} : { worktree: { repo: '/src/api', path: worktree, branch: 'feat-x', base: 'a'.repeat(40), baseRef: 'main' } }),
});
const state = (tasks: PersistedState['tasks']): PersistedState => ({ version: 1, tmuxSession: '$1', namespace: null, nextId: 9, tasks });

describe('the fleet index', () => {
  it('notes a runtime dir once, dropping the noted ones that hold neither a lock nor a state.json', async () => {
    const dir = tempDir();
    const file = join(dir, 'config', 'fleets.json');
    const [live, gone] = [join(dir, 'live'), join(dir, 'gone')];
    mkdirSync(live);
    writeFileSync(join(live, 'lock'), '1\n');
    await noteFleet(file, live);
    await noteFleet(file, gone);
    await noteFleet(file, join(dir, 'new'));
    await noteFleet(file, join(dir, 'new'));
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, runtimeDirs: [live, join(dir, 'new')] });
  });

  it('knows the noted dirs and the default ones, and refuses an index it cannot read', async () => {
    const dir = tempDir();
    const file = join(dir, 'fleets.json');
    await noteFleet(file, '/run/custom');
    const env = { XDG_RUNTIME_DIR: '/run/user/7', TMPDIR: '/tmp/t', FLEETCOM_RUNTIME_DIR: '/run/mine' };
    expect(knownRuntimeDirs(file, env).slice(0, 4)).toEqual(['/run/custom', '/run/mine', '/run/user/7/fleetcom', `/tmp/t/fleetcom-${process.getuid!()}`]);
    writeFileSync(file, '{"version": 1, "runtimeDirs": ["relative"]}');
    expect(() => knownRuntimeDirs(file, env)).toThrow(`${file}: expected {"version": 1, "runtimeDirs": ["/abs/dir", …]}; fix or move it away`);
  });

  it("reads a fleet's tasks, live or left behind; nothing where no fleet is; why where it cannot", () => {
    const dir = tempDir();
    const at = (d: string) => join(dir, d);
    const [live, left, none, broken, starting] = [at('live'), at('left'), at('none'), at('broken'), at('starting')] as const;
    for (const d of [live, left, none, broken, starting]) mkdirSync(d);
    writeState(join(live, 'state.json'), state([task(1, '/w', null), task(2, '/src/api.worktrees/feat-x', '/src/api.worktrees/feat-x')]));
    writeFileSync(join(live, 'lock'), `${process.pid}\nstart ${startTicks('/proc', process.pid)}\n`);
    writeState(join(left, 'state.json'), state([task(5, '/x', null)]));
    writeFileSync(join(broken, 'state.json'), '{"version": 1, "tasks": [');
    writeFileSync(join(starting, 'lock'), `${process.pid}\nstart ${startTicks('/proc', process.pid)}\n`);
    expect(readFleet(live)).toEqual({ runtimeDir: live, pid: process.pid, tasks: [{ id: 1, cwd: '/w', worktree: null }, { id: 2, cwd: '/src/api.worktrees/feat-x', worktree: '/src/api.worktrees/feat-x' }] });
    expect(readFleet(left)).toEqual({ runtimeDir: left, pid: null, tasks: [{ id: 5, cwd: '/x', worktree: null }] });
    expect(readFleet(none)).toBeNull();
    expect(readFleet(broken)).toEqual({ why: `${join(broken, 'state.json')}: not valid JSON` });
    expect(readFleet(starting)).toEqual({ why: `its supervisor (pid ${process.pid}) runs but ${join(starting, 'state.json')} is not there (starting?)` });
    const read = readFleets([live, left, none, broken], live);
    expect(read.fleets.map((f) => f.runtimeDir)).toEqual([left]);
    expect(read.unreadable.map((u) => u.runtimeDir)).toEqual([broken]);
  });

  it('names a state.json it may not read', () => {
    if (process.getuid?.() === 0) return; // root reads everything
    const dir = tempDir();
    writeState(join(dir, 'state.json'), state([]));
    chmodSync(join(dir, 'state.json'), 0);
    expect(readFleet(dir)).toEqual({ why: expect.stringContaining(`${join(dir, 'state.json')} cannot be read`) as string });
  });
});
