import { describe, expect, it } from 'vitest';
import { formatDoctorTable } from '../../src/commands/doctor/doctor-table.js';
import type { EntryReport } from '../../src/doctor/checks.js';

const gone = (i: number): EntryReport => ({
  dir: `/gone/d${i}`, command: 'sleep 1', name: null, verdict: 'fail', why: `the directory /gone/d${i} does not exist`,
  todo: 'restore the directory, or remove the entry', unresumable: false, fix: null,
  checks: [{ check: 'directory', ok: false, detail: `the directory /gone/d${i} does not exist` }, { check: 'program', ok: true, detail: '/bin/sleep' }],
});
const ready: EntryReport = {
  dir: '/w', command: 'sleep 2', name: null, verdict: 'ok', why: 'ready', todo: '-', unresumable: false, fix: null,
  checks: [{ check: 'directory', ok: true, detail: '/w' }, { check: 'program', ok: true, detail: '/bin/sleep' }],
};

describe('formatDoctorTable', () => {
  it('shows the first three entries failing for one reason and counts the rest in one row', () => {
    const entries = [ready, ...Array.from({ length: 300_000 }, (_, i) => gone(i))];
    const lines = formatDoctorTable(entries).trimEnd().split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(/^\/w: sleep 2 +ok +ready +-$/);
    expect(lines[4]).toMatch(/^\/gone\/d2: sleep 1 +fail/);
    expect(lines[5]).toMatch(/^… and 299997 more +fail +the directory does not exist \(--verbose lists every one\) +restore the directory, or remove the entry$/);
  });

  it('gives every entry its row with verbose', () => {
    const lines = formatDoctorTable(Array.from({ length: 1000 }, (_, i) => gone(i)), true).trimEnd().split('\n');
    expect(lines).toHaveLength(1001);
    expect(lines[1000]).toMatch(/^\/gone\/d999: sleep 1 +fail/);
  });
});
