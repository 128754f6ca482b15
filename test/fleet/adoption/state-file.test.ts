import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readState, writeState, type PersistedState } from '../../../src/fleet/adoption/state-file.js';
import { tempDir } from '../../harness/fixtures.js';

// `<runtime dir>/state.json`: written whole or not at all, read back as untrusted input.

const state: PersistedState = {
  version: 1, tmuxSession: '$3', namespace: '/run/fleetcom/captures/4242-abcdefabcdef', nextId: 3,
  tasks: [{
    id: 2, run: 1, cwd: '/w/a b', command: "claude --resume 'x'", name: '#web; x\u241e', group: null, tagged: true, harness: 'claude',
    pinnedId: null, targetId: null, captureFile: null, home: '/h/.claude', spawnedAt: 1000, windowId: '@4', paneId: '%7',
    exitHint: null, exitStatus: 0, killed: false, endedAt: 2000, everHeld: ['a'],
  }],
};

function read(file: string) {
  const warnings: string[] = [];
  return { state: readState(file, (w) => warnings.push(w), new Date('2026-11-30T18:00:00.123Z')), warnings };
}

describe('state.json', () => {
  it('reads back what was written, in a file only its owner can read, with no temp file left', () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    writeState(file, state);
    writeState(file, { ...state, nextId: 4 });
    expect(read(file)).toEqual({ state: { ...state, nextId: 4 }, warnings: [] });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('leaves no temp file when the write cannot complete', () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    // A directory in the file's place: the rename fails after the temp file was written.
    mkdirSync(file);
    writeFileSync(join(file, 'x'), '');
    expect(() => writeState(file, state)).toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('is no state, and no warning, when there is none', () => {
    expect(read(join(tempDir(), 'state.json'))).toEqual({ state: null, warnings: [] });
  });

  it.each([
    ['a task id that is not a positive integer', { ...state, tasks: [{ ...state.tasks[0]!, id: -2 }] }, 'tasks.0.id'],
    ['another version', { ...state, version: 2 }, 'version'],
    ['a harness fleetcom does not know', { ...state, tasks: [{ ...state.tasks[0]!, harness: 'sh -c x' }] }, 'tasks.0.harness'],
  ])('is kept aside, never overwritten, with %s, and the warning names the field', (_, damaged, field) => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    const text = JSON.stringify(damaged);
    writeFileSync(file, text);
    const got = read(file);
    expect(got.state).toBeNull();
    expect(got.warnings).toEqual([expect.stringContaining(`(${field}: `)]);
    expect(readFileSync(join(dir, 'state.json.corrupt-2026-11-30T18-00-00-123Z'), 'utf8')).toBe(text);
  });
});
