import { copyFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  conversationOf,
  detect,
  harnessFor,
  homeVarsToKeep,
  instrument,
  kiloHome,
  resolveId,
  rewriteCommand,
  scrapeExit,
  storedConversation,
  type RunEvidence,
} from '../../src/harness/index.js';
import { ID, tempDir } from './fixtures.js';

// Kilo CLI, opencode's fork: the family's rules (test/harness/opencode.test.ts) under Kilo's own
// names, against the ids, exit lines and session table measured on Kilo 7.7.7 (its table has
// more columns than opencode 1.18.33's, the four fleetcom reads among them, so opencode's
// fixture database stands for it).

const SID = 'ses_dc5136ce3ffeK8HXnY3v0fF2Id';
const MAIN = 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q';
const CHILD = 'ses_dccbe66c4ffdChildChildChi1';
const T = 1796156266826;
const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'opencode', 'sessions.db');

function database(): string {
  const db = path.join(tempDir(), 'kilo.db');
  copyFileSync(FIXTURE, db);
  copyFileSync(`${FIXTURE}-wal`, `${db}-wal`);
  return db;
}

function evidence(db: string, over: Partial<RunEvidence> = {}): RunEvidence {
  return { harness: 'kilo', cwd: '/w/app', home: db, captureFile: null, exitHint: null, pinnedId: null, spawnedAt: T, endedAt: T + 120_000, ...over };
}
const none = new Set<string>();
const save = { now: T + 200_000, correlate: true, heldByOthers: none, everHeld: none };

describe('kilo detection (9.1)', () => {
  it.each([
    ['kilo', 'bare'],
    [`kilo -s ${SID}`, 'resume'],
    [`kilo --session '${SID}'`, 'resume'],
    [`kilo -s ${ID}`, 'opaque'],
    ['kilo -c', 'opaque'],
    ["kilo run 'fix it'", 'opaque'],
    ['kilocode', 'opaque'],
  ])('%s is %s', (command, form) => {
    expect(detect(command).form).toBe(form);
  });

  it('rewrites both spellings to `kilo -s <id>` quoted, and refuses a uuid', () => {
    expect(rewriteCommand('kilo', SID)).toBe(`kilo -s '${SID}'`);
    expect(rewriteCommand(`kilo --session ${SID}`, SID)).toBe(`kilo -s '${SID}'`);
    expect(rewriteCommand('kilo', ID)).toBe('kilo');
  });
});

describe('kilo instrumentation', () => {
  const NS = '/run/fleetcom/1-0123456789ab';
  const base = { namespace: NS, captureFile: `${NS}/task-1-1.json`, newId: () => ID, home: '/h/kilo.db' };
  const plan = (command: string, env: Record<string, string> = {}) => {
    const detection = detect(command);
    if (detection.form === 'opaque') throw new Error('opaque');
    return instrument({ ...base, detection, env });
  };
  const url = pathToFileURL(`${NS}/opencode-plugin.js`).href;

  it("gives the launch opencode's plugin through KILO_CONFIG_CONTENT, merged into the caller's, and changes no word", () => {
    expect(plan('kilo')).toEqual({
      suffix: '',
      env: { FLEETCOM_CAPTURE_FILE: base.captureFile, KILO_CONFIG_CONTENT: JSON.stringify({ plugin: [url] }) },
      pinnedId: null,
      captures: true,
    });
    expect(plan(`kilo -s ${SID}`).pinnedId).toBe(SID);
    const own = JSON.stringify({ model: 'x/y', plugin: ['mine'] });
    // opencode's variable is opencode's: Kilo's launch leaves it alone.
    expect(JSON.parse(plan('kilo', { KILO_CONFIG_CONTENT: own, OPENCODE_CONFIG_CONTENT: '{}' }).env.KILO_CONFIG_CONTENT ?? '')).toEqual({ model: 'x/y', plugin: ['mine', url] });
    expect(plan('kilo', { KILO_CONFIG_CONTENT: '{not json' })).toEqual({ suffix: '', env: {}, pinnedId: null, captures: false });
  });
});

describe('kilo home', () => {
  it.each([
    [{ HOME: '/h' }, '/h/.local/share/kilo/kilo.db'],
    [{ HOME: '/h', XDG_DATA_HOME: '/d' }, '/d/kilo/kilo.db'],
    [{ HOME: '/h', XDG_DATA_HOME: '/d', KILO_DB: '/x/my.db' }, '/x/my.db'],
    // A relative KILO_DB names a file in its data folder (read from its 7.7.7 binary).
    [{ HOME: '/h', KILO_DB: 'other.db' }, '/h/.local/share/kilo/other.db'],
    [{ HOME: '/h', XDG_DATA_HOME: 'relative', OPENCODE_DB: '/o.db' }, '/h/.local/share/kilo/kilo.db'],
  ])('%j → %s', (env, db) => {
    expect(kiloHome.resolve(env)).toBe(db);
  });

  it('keeps an in-memory database as its name (nothing on disk to read), and has none without HOME', () => {
    expect(kiloHome.resolve({ HOME: '/h', KILO_DB: ':memory:' })).toBe(':memory:');
    expect(storedConversation('kilo', ':memory:', '/w/app', SID)).toMatchObject({ found: false });
    expect(() => kiloHome.resolve({})).toThrow(/KILO_DB/);
  });

  it('is kept in a recipe by the variable that puts it there, and not at all at its default', () => {
    expect(kiloHome.varsFor('/d/kilo/kilo.db')).toEqual({ XDG_DATA_HOME: '/d' });
    expect(kiloHome.varsFor('/x/my.db')).toEqual({ KILO_DB: '/x/my.db' });
    expect(homeVarsToKeep('kilo', '/u/.local/share/kilo/kilo.db', '/u')).toEqual({});
  });
});

describe('kilo exit hint', () => {
  it.each([
    // As 7.7.7 prints it: the title, then the command, each after a piece of its logo.
    [`  ██  ██ ██🬺🬏   ██  ██   ██🬺🬏  New session - 2026-12-03T08:01:52.412Z\n  ████🬺🬏   ██   ██     ██  ██  kilo -s ${SID}\n`, SID],
    [`kilo -s ${MAIN}\nkilo -s ${SID}`, SID],
    [`kilo -s ${SID}x`, null],
    [`opencode -s ${SID}`, null],
  ])('%j → %s', (text, id) => {
    expect(scrapeExit('kilo', text)).toBe(id);
  });
  it("is not opencode's: opencode's scraper does not take `kilo -s`", () => {
    expect(scrapeExit('opencode', `kilo -s ${SID}`)).toBeNull();
  });
});

describe('kilo store (9.4, 9.5)', () => {
  it('correlates only a single parent-less session of this cwd, and never resumes a child', () => {
    const db = database();
    expect(resolveId(evidence(db, { spawnedAt: T + 50_000 }), save)).toMatchObject({ source: 'correlation' });
    expect(resolveId(evidence(db), save)).toBeNull();
    expect(resolveId(evidence(db, { exitHint: CHILD, pinnedId: CHILD }), { ...save, correlate: false })).toEqual({ id: MAIN, source: 'exit-hint' });
    expect(conversationOf('kilo', CHILD, { home: db, cwd: '/w/app' })).toMatchObject({ kind: 'parent', id: MAIN, child: CHILD });
  });

  it('tells doctor where it looked, in its own name', () => {
    const db = database();
    expect(storedConversation('kilo', db, '/w/app', MAIN)).toEqual({ found: true, path: db });
    expect(storedConversation('kilo', db, '/w/app', SID)).toMatchObject({ found: false, why: `no kilo session ${SID} in ${db}` });
    expect(storedConversation('kilo', path.join(tempDir(), 'none.db'), '/w/app', SID)).toMatchObject({ why: expect.stringContaining('the kilo database') });
    expect(harnessFor('kilo').ownership).toMatchObject({ kind: 'none', why: expect.stringContaining('kilo keeps') });
  });
});
