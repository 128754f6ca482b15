import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  listSessions,
  pruneRecovery,
  readRecipeFile,
  recoveryDir,
  recoveryFileName,
  recoverySnapshot,
  saveNamed,
  writeRecipeAtomic,
  type Recipe,
} from '../../src/sessions/index.js';

const HOME = '/home/ann';
let tmp: string;
let dir: string;

beforeEach(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'fleetcom-recovery-'));
  dir = path.join(tmp, 'sessions');
});
afterEach(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

const mode = async (p: string): Promise<number> => (await fsp.stat(p)).mode & 0o777;
const at = (iso: string): Date => new Date(iso);

function fleet(n: number): Recipe {
  const entries = Array.from({ length: n }, (_, k) => ({ cmd: `task ${k}`, group: null, name: null }));
  return { name: 'whatever', dirs: new Map([['/home/ann/w', entries]]) };
}

/** A snapshot written as the supervisor's recovery writer writes it (atomically, named after its start). */
async function writeRecoverySnapshot(sessionDir: string, startedAt: Date, pid: number, recipe: Recipe, home: string): Promise<string> {
  const { file, text } = recoverySnapshot(sessionDir, startedAt, pid, recipe, home);
  await writeRecipeAtomic(file, text);
  return file;
}

async function touch(file: string, iso: string): Promise<void> {
  await fsp.utimes(file, at(iso), at(iso));
}

describe('writeRecoverySnapshot', () => {
  it('writes <dir>/recovery/<start>-<pid>.json named autosaved, 0600 in 0700 directories', async () => {
    const file = await writeRecoverySnapshot(dir, at('2026-11-29T19:30:05Z'), 4242, fleet(2), HOME);
    expect(file).toBe(path.join(dir, 'recovery', '20261129-193005-4242.json'));
    const back = await readRecipeFile(file);
    expect(back.name).toBe('autosaved 2026-11-29 19:30');
    expect(back.closed).toBeUndefined();
    expect([...back.dirs.keys()]).toEqual(['~/w']);
    expect(await mode(file)).toBe(0o600);
    expect(await mode(dir)).toBe(0o700);
    expect(await mode(recoveryDir(dir))).toBe(0o700);
  });

  it('rewrites the same file on every change and marks the final one closed', async () => {
    const started = at('2026-11-29T19:30:05Z');
    await writeRecoverySnapshot(dir, started, 7, fleet(1), HOME);
    const file = await writeRecoverySnapshot(dir, started, 7, { ...fleet(3), closed: true }, HOME);
    expect(await fsp.readdir(recoveryDir(dir))).toEqual(['20261129-193005-7.json']);
    const back = await readRecipeFile(file);
    expect(back.closed).toBe(true);
    expect(back.dirs.get('~/w')).toHaveLength(3);
  });
});

describe('pruneRecovery', () => {
  const closedFleet: Recipe = { ...fleet(1), closed: true };
  it('keeps the newest 10 by the start time in the name, whatever the mtimes, and nothing else is touched', async () => {
    const rec = recoveryDir(dir);
    const starts: string[] = [];
    for (let k = 0; k < 13; k++) {
      const started = new Date(Date.UTC(2026, 10, 1 + k, 12, 0, 0));
      const file = await writeRecoverySnapshot(dir, started, 100 + k, closedFleet, HOME);
      // mtimes run backwards, so a sort by mtime would prune the wrong ones.
      await touch(file, new Date(Date.UTC(2027, 0, 30 - k)).toISOString());
      starts.push(path.basename(file));
    }
    for (const other of ['notes.json', 'README', '.fleetcom-abcd1234.tmp', '2026-11-01.json']) {
      await fsp.writeFile(path.join(rec, other), 'keep me');
    }
    const deleted = await pruneRecovery(dir);
    expect(deleted.map((f) => path.basename(f)).sort()).toEqual(starts.slice(0, 3).sort());
    const left = (await fsp.readdir(rec)).sort();
    expect(left).toEqual([...starts.slice(3), '.fleetcom-abcd1234.tmp', '2026-11-01.json', 'README', 'notes.json'].sort());
  });

  it('breaks a tie of start times by pid and honours a smaller keep', async () => {
    const started = at('2026-11-29T19:30:05Z');
    for (const pid of [5, 40, 300]) await writeRecoverySnapshot(dir, started, pid, closedFleet, HOME);
    const deleted = await pruneRecovery(dir, 1);
    expect(deleted.map((f) => path.basename(f)).sort()).toEqual(['20261129-193005-40.json', '20261129-193005-5.json']);
    expect(await fsp.readdir(recoveryDir(dir))).toEqual(['20261129-193005-300.json']);
  });

  it('does nothing when there is no recovery directory', async () => {
    expect(await pruneRecovery(dir)).toEqual([]);
  });

  it('never prunes a snapshot that was not closed while it is younger than 30 days, however many newer ones exist', async () => {
    const now = Date.UTC(2026, 11, 30);
    const day = 24 * 60 * 60 * 1000;
    const crashed = await writeRecoverySnapshot(dir, new Date(now - 29 * day), 1, fleet(2), HOME);
    await touch(crashed, new Date(now - 29 * day).toISOString());
    const unreadable = path.join(recoveryDir(dir), recoveryFileName(new Date(now - 28 * day), 2));
    await fsp.writeFile(unreadable, '{"version": 1, "dirs": ');
    await touch(unreadable, new Date(now - 28 * day).toISOString());
    const old = await writeRecoverySnapshot(dir, new Date(now - 31 * day), 3, fleet(2), HOME);
    await touch(old, new Date(now - 31 * day).toISOString());
    const oldClosed = await writeRecoverySnapshot(dir, new Date(now - 27 * day), 4, closedFleet, HOME);
    await touch(oldClosed, new Date(now - 27 * day).toISOString());
    for (let k = 0; k < 10; k++) {
      const file = await writeRecoverySnapshot(dir, new Date(now - k * 60_000), 100 + k, closedFleet, HOME);
      await touch(file, new Date(now - k * 60_000).toISOString());
    }
    const deleted = await pruneRecovery(dir, 10, undefined, now);
    expect(deleted.map((f) => path.basename(f)).sort()).toEqual([path.basename(old), path.basename(oldClosed)].sort());
    const left = await fsp.readdir(recoveryDir(dir));
    expect(left).toContain(path.basename(crashed));
    expect(left).toContain(path.basename(unreadable));
    expect(left).toHaveLength(12);
  });
});

describe('listSessions', () => {
  it('is empty when the session directory does not exist', async () => {
    expect(await listSessions(dir)).toEqual({ saved: [], recovery: [] });
  });

  it('lists saved sessions and snapshots newest first, with task counts, and marks broken files', async () => {
    const a = (await saveNamed(dir, 'alpha', fleet(2), HOME)).file;
    const b = (await saveNamed(dir, 'beta/2', fleet(5), HOME)).file;
    const broken = path.join(dir, 'broken.json');
    await fsp.writeFile(broken, '{"version": 9, "dirs": {}}');
    await fsp.writeFile(path.join(dir, 'notes.txt'), 'not a session');
    await fsp.writeFile(path.join(dir, '.fleetcom-0011aabb.tmp'), 'half written');
    await touch(a, '2026-11-20T10:00:00Z');
    await touch(b, '2026-11-28T10:00:00Z');
    await touch(broken, '2026-11-25T10:00:00Z');

    const older = await writeRecoverySnapshot(dir, at('2026-11-29T08:00:00Z'), 11, fleet(3), HOME);
    const newer = await writeRecoverySnapshot(dir, at('2026-11-29T09:15:00Z'), 22, { ...fleet(1), closed: true }, HOME);
    const garbled = path.join(recoveryDir(dir), recoveryFileName(at('2026-11-29T10:00:00Z'), 33));
    await fsp.writeFile(garbled, '{"version": 1, "dirs": {"/w": [');
    await touch(older, '2026-11-29T18:00:00Z'); // the long-lived supervisor wrote last
    await touch(newer, '2026-11-29T09:20:00Z');
    await touch(garbled, '2026-11-29T10:00:00Z');

    const { saved, recovery } = await listSessions(dir);
    expect(saved.map((s) => [s.name, path.basename(s.file), s.tasks, s.error === null])).toEqual([
      ['beta/2', 'beta_2.json', 5, true],
      ['broken', 'broken.json', null, false],
      ['alpha', 'alpha.json', 2, true],
    ]);
    expect(saved[1]?.error).toContain('written by a newer fleetcom (version 9)');
    expect(saved[0]?.modified).toEqual(at('2026-11-28T10:00:00Z'));

    expect(recovery.map((r) => [path.basename(r.file), r.label, r.tasks, r.closed, r.pid, r.error === null])).toEqual([
      ['20261129-080000-11.json', 'autosaved 2026-11-29 08:00', 3, false, 11, true],
      ['20261129-100000-33.json', 'autosaved 2026-11-29 10:00', null, false, 33, false],
      ['20261129-091500-22.json', 'autosaved 2026-11-29 09:15', 1, true, 22, true],
    ]);
    expect(recovery[1]?.error).toContain('invalid JSON');
    expect(recovery[0]?.startedAt).toEqual(at('2026-11-29T08:00:00Z'));
  });
});
