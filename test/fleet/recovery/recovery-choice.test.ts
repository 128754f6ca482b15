import { describe, expect, it } from 'vitest';
import { abandonedSnapshots, newestUnclosedSnapshot } from '../../../src/fleet/recovery/recovery-choice.js';
import type { RecoveryEntry } from '../../../src/sessions/index.js';

function entry(pid: number, fields: Partial<RecoveryEntry> = {}): RecoveryEntry {
  return {
    file: `/s/recovery/20261129-193005-${pid}.json`, label: 'autosaved 2026-11-29 19:30', tasks: 2,
    modified: new Date(0), closed: false, pid, startedAt: new Date(0), error: null, ...fields,
  };
}

// Listings come newest first (listSessions sorts them).
describe('newestUnclosedSnapshot', () => {
  it('takes the newest snapshot the running supervisor did not write', () => {
    expect(newestUnclosedSnapshot([entry(10), entry(20), entry(30)], 10)?.pid).toBe(20);
  });

  it('takes the newest when no supervisor runs', () => {
    expect(newestUnclosedSnapshot([entry(10), entry(20)], null)?.pid).toBe(10);
  });

  it('passes over unreadable snapshots', () => {
    expect(newestUnclosedSnapshot([entry(10, { error: 'bad', tasks: null }), entry(20)], 1)?.pid).toBe(20);
  });

  it('passes over snapshots closed by down, however many and however new', () => {
    expect(newestUnclosedSnapshot([entry(10, { closed: true }), entry(11, { closed: true }), entry(20)], 1)?.pid).toBe(20);
  });

  it('finds nothing when the only snapshot is the running fleet own', () => {
    expect(newestUnclosedSnapshot([entry(10)], 10)).toBeNull();
  });
});

describe('abandonedSnapshots', () => {
  const dead = () => false;
  it('names every foreign snapshot of a dead supervisor that did not close, newest first', () => {
    expect(abandonedSnapshots([entry(7), entry(20), entry(21, { closed: true }), entry(30)], 7, dead).map((e) => e.pid)).toEqual([20, 30]);
  });

  it('still names an older unclosed snapshot behind a newer closed one', () => {
    expect(abandonedSnapshots([entry(20, { closed: true }), entry(30)], 7, dead).map((e) => e.pid)).toEqual([30]);
  });

  it('names an unreadable snapshot: it is not known to be closed', () => {
    expect(abandonedSnapshots([entry(20, { error: 'bad JSON', tasks: null })], 7, dead).map((e) => e.pid)).toEqual([20]);
  });

  it('says nothing while its supervisor still runs', () => {
    expect(abandonedSnapshots([entry(20)], 7, (pid: number) => pid === 20)).toEqual([]);
  });

  it('says nothing for an empty snapshot', () => {
    expect(abandonedSnapshots([entry(20, { tasks: 0 })], 7, dead)).toEqual([]);
  });
});
