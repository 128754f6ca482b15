import { describe, expect, it } from 'vitest';
import { abandonedSnapshot, newestForeignSnapshot } from '../../src/fleet/recovery-choice.js';
import type { RecoveryEntry } from '../../src/sessions/index.js';

function entry(pid: number, fields: Partial<RecoveryEntry> = {}): RecoveryEntry {
  return {
    file: `/s/recovery/20261129-193005-${pid}.json`, label: 'autosaved 2026-11-29 19:30', tasks: 2,
    modified: new Date(0), closed: false, pid, startedAt: new Date(0), error: null, ...fields,
  };
}

// Listings come newest first (listSessions sorts them).
describe('newestForeignSnapshot', () => {
  it('takes the newest snapshot the running supervisor did not write', () => {
    expect(newestForeignSnapshot([entry(10), entry(20), entry(30)], 10)?.pid).toBe(20);
  });

  it('takes the newest when no supervisor runs', () => {
    expect(newestForeignSnapshot([entry(10), entry(20)], null)?.pid).toBe(10);
  });

  it('passes over unreadable snapshots', () => {
    expect(newestForeignSnapshot([entry(10, { error: 'bad', tasks: null }), entry(20)], 1)?.pid).toBe(20);
  });

  it('finds nothing when the only snapshot is the running fleet own', () => {
    expect(newestForeignSnapshot([entry(10)], 10)).toBeNull();
  });
});

describe('abandonedSnapshot', () => {
  const dead = () => false;
  it('points at the newest foreign snapshot of a dead supervisor that did not close', () => {
    expect(abandonedSnapshot([entry(7), entry(20)], 7, dead)?.pid).toBe(20);
  });

  it('says nothing when that snapshot was closed by down, even if an older one was not', () => {
    expect(abandonedSnapshot([entry(20, { closed: true }), entry(30)], 7, dead)).toBeNull();
  });

  it('says nothing while its supervisor still runs', () => {
    expect(abandonedSnapshot([entry(20)], 7, (pid) => pid === 20)).toBeNull();
  });

  it('says nothing for an empty snapshot', () => {
    expect(abandonedSnapshot([entry(20, { tasks: 0 })], 7, dead)).toBeNull();
  });
});
