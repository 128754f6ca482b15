import { describe, expect, it } from 'vitest';
import { runSave } from '../../src/commands/fleet/save.js';
import { countResumable, savedMessage } from '../../src/fleet/ids/fleet-recipe.js';
import { snapshotArg } from '../../src/commands/fleet/load.js';
import { formatSessions, sessionsJson } from '../../src/commands/fleet/sessions.js';
import type { Deps } from '../../src/deps.js';
import { UsageError } from '../../src/errors.js';
import { fleetRecipe } from '../../src/fleet/ids/fleet-recipe.js';
import type { SessionListing } from '../../src/sessions/index.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';
const CID = '019f5453-de22-7240-b2e5-0d32692aa6d9';
const t = (cwd: string, cmd: string, name: string | null = null, group: string | null = null) => ({ cwd, cmd, name, group });

describe('fleetRecipe', () => {
  it('groups tasks by directory in task order, keeping names and groups', () => {
    const recipe = fleetRecipe('work', [t('/a', 'claude'), t('/b', 'make', 'build', 'ci'), t('/a', 'codex')]);
    expect(recipe.name).toBe('work');
    expect([...recipe.dirs]).toEqual([
      ['/a', [{ cmd: 'claude', name: null, group: null }, { cmd: 'codex', name: null, group: null }]],
      ['/b', [{ cmd: 'make', name: 'build', group: 'ci' }]],
    ]);
  });
});

describe('countResumable', () => {
  it.each([
    [[`claude --resume '${ID}'`, `codex resume '${CID}'`, `grok --resume '${ID}'`], 3],
    [[`/usr/local/bin/claude --resume '${ID}'`], 1],
    [['claude', 'codex', 'grok', 'npm run dev'], 0],
    [[`claude --resume '${ID}' --model opus`, `echo claude --resume ${ID}`], 0],
  ])('counts canonical resume forms of a harness: %j → %i', (cmds, n) => {
    expect(countResumable(fleetRecipe('x', cmds.map((cmd) => t('/w', cmd))))).toBe(n);
  });

  it('reports the count in the saved message', () => {
    const recipe = fleetRecipe('work', [t('/w', `codex resume '${CID}'`), t('/w', 'npm test')]);
    expect(savedMessage(recipe)).toBe("saved 'work': 2 command(s) (1 resumable)\n");
  });
});

describe('runSave argument checks (before the fleet is asked)', () => {
  const deps: Deps = { env: {}, cwd: '/', stdout: { write: () => true }, stderr: { write: () => true }, now: () => 0 };
  it.each([
    ['an empty name', '', {}],
    ['a blank name', ' \t', {}],
    ['no name and nowhere to write', undefined, {}],
    ['--output and --stdout together', 'x', { output: 'f.json', stdout: true }],
    ['an empty --output', 'x', { output: ' ' }],
  ])('refuses %s as a usage error', async (_what, name, opts) => {
    await expect(runSave(name, opts, deps)).rejects.toBeInstanceOf(UsageError);
  });
});

describe('snapshotArg', () => {
  it.each([
    ['20261129-193005-4242', '/s/recovery/20261129-193005-4242.json'],
    ['20261129-193005-4242.json', '20261129-193005-4242.json'],
    ['./20261129-193005-4242', './20261129-193005-4242'],
    ['work', 'work'],
    ['20261399-193005-4242', '20261399-193005-4242'],
  ])('%s → %s', (arg, file) => {
    expect(snapshotArg(arg, '/s')).toBe(file);
  });
});

describe('sessions output', () => {
  const listing: SessionListing = {
    saved: [{ name: 'work', file: '/s/work.json', tasks: 3, modified: new Date('2026-11-29T19:00:00Z'), error: null }],
    recovery: [{
      file: '/s/recovery/20261129-193005-4242.json', label: 'autosaved 2026-11-29 19:30', tasks: 2,
      modified: new Date('2026-11-29T19:40:00Z'), closed: true, pid: 4242, startedAt: new Date('2026-11-29T19:30:05Z'), error: null,
    }],
  };

  it('lists saved sessions, then snapshots with their age and the name recover takes', () => {
    expect(formatSessions(listing, Date.parse('2026-11-29T21:40:00Z'))).toBe(
      'SESSION  TASKS  MODIFIED          FILE\n' +
        'work     3      2026-11-29 19:00  /s/work.json\n' +
        '\n' +
        'RECOVERY                             AGE  TASKS  SNAPSHOT\n' +
        'autosaved 2026-11-29 19:30 (closed)  2h   2      20261129-193005-4242\n',
    );
  });

  it('prints one JSON document with ISO times', () => {
    expect(sessionsJson(listing)).toEqual({
      saved: [{ name: 'work', file: '/s/work.json', tasks: 3, modified: '2026-11-29T19:00:00.000Z', error: null }],
      recovery: [{
        file: '/s/recovery/20261129-193005-4242.json', label: 'autosaved 2026-11-29 19:30', tasks: 2,
        modified: '2026-11-29T19:40:00.000Z', closed: true, pid: 4242, startedAt: '2026-11-29T19:30:05.000Z', error: null,
      }],
    });
  });
});
