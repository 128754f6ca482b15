import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  conversationOf,
  detect,
  instrument,
  isOpencodeId,
  opencodeHome,
  opencodeSignal,
  OPENCODE_PLUGIN,
  readSqliteTable,
  resolveId,
  rewriteCommand,
  scrapeExit,
  storedConversation,
  type RunEvidence,
} from '../../src/harness/index.js';
import { ID, tempDir, write } from './fixtures.js';

// Contract 9.1, 9.2, 9.4 and 9.5 for opencode, against ids, events and a database laid out as
// opencode 1.18.33 makes them (test/fixtures/opencode/make-sessions-db.py).

const SID = 'ses_dcd254f97ffeRjctlW5tG6xzJ7';
const MAIN = 'ses_dccbe66c4ffeR0KvdX3rqoJ33Q';
const CHILD = 'ses_dccbe66c4ffdChildChildChi1';
const WAL_ONLY = 'ses_dccbe0000000WalOnlyWalOnly';
const T = 1796156266826;
const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'opencode', 'sessions.db');

/** A copy of the fixture database (and its WAL), so nothing a test does reaches the original. */
function database(withWal = true): string {
  const db = path.join(tempDir(), 'opencode.db');
  copyFileSync(FIXTURE, db);
  if (withWal) copyFileSync(`${FIXTURE}-wal`, `${db}-wal`);
  return db;
}

function evidence(db: string, over: Partial<RunEvidence> = {}): RunEvidence {
  return { harness: 'opencode', cwd: '/w/app', home: db, captureFile: null, exitHint: null, pinnedId: null, spawnedAt: T, endedAt: T + 120_000, ...over };
}
const none = new Set<string>();
const save = { now: T + 200_000, correlate: true, heldByOthers: none, everHeld: none };

describe('opencode ids and detection (9.1, 9.2)', () => {
  it.each([
    [SID, true],
    [MAIN, true],
    ['ses_x', false],
    [`${SID}x`, false],
    ['ses_dcd254f97ffeRjctlW5tG6xz-7', false],
    ['SES_dcd254f97ffeRjctlW5tG6xzJ7', false],
    [ID, false],
  ])('%s is an opencode id: %s', (value, valid) => {
    expect(isOpencodeId(value)).toBe(valid);
  });

  it.each([
    ['opencode', 'bare'],
    [`opencode -s '${SID}'`, 'resume'],
    [`opencode --session ${SID}`, 'resume'],
    ['opencode -c', 'opaque'],
    [`opencode run -s ${SID}`, 'opaque'],
    [`opencode -s ${SID} --fork`, 'opaque'],
    ['opencode -s ses_x', 'opaque'],
    [`opencode -s ${ID}`, 'opaque'],
    [`opencode -s "${SID}"`, 'opaque'],
  ])('%s is %s', (command, form) => {
    expect(detect(command).form).toBe(form);
  });

  it('rewrites both spellings to `opencode -s <id>` quoted, and refuses a uuid', () => {
    expect(rewriteCommand('opencode', SID)).toBe(`opencode -s '${SID}'`);
    expect(rewriteCommand(`opencode --session ${MAIN}`, SID)).toBe(`opencode -s '${SID}'`);
    expect(rewriteCommand('opencode', ID)).toBe('opencode');
  });
});

describe('opencode instrumentation (9.4)', () => {
  const NS = "/run/fleet com/1-0123456789ab";
  const base = { namespace: NS, captureFile: `${NS}/task-1-1.json`, newId: () => ID, home: '/h/db' };
  const plan = (command: string, env: Record<string, string> = {}) => {
    const detection = detect(command);
    if (detection.form === 'opaque') throw new Error('opaque');
    return instrument({ ...base, detection, env });
  };
  const url = pathToFileURL(`${NS}/opencode-plugin.js`).href;

  it('gives the launch its plugin through OPENCODE_CONFIG_CONTENT, and changes no word', () => {
    expect(plan('opencode')).toEqual({
      suffix: '',
      env: { FLEETCOM_CAPTURE_FILE: base.captureFile, OPENCODE_CONFIG_CONTENT: JSON.stringify({ plugin: [url] }) },
      pinnedId: null,
      captures: true,
    });
    expect(plan(`opencode -s ${SID}`).pinnedId).toBe(SID);
  });

  it("merges into the caller's own inline config, keeping its plugins", () => {
    const own = JSON.stringify({ model: 'x/y', plugin: ['my-plugin'] });
    expect(JSON.parse(plan('opencode', { OPENCODE_CONFIG_CONTENT: own }).env.OPENCODE_CONFIG_CONTENT ?? '')).toEqual({ model: 'x/y', plugin: ['my-plugin', url] });
  });

  it.each(['{not json', '[1]', JSON.stringify({ plugin: 'one' }), JSON.stringify({ plugin: [1] })])(
    'leaves an inline config it cannot merge alone, uncaptured: %s',
    (own) => {
      expect(plan('opencode', { OPENCODE_CONFIG_CONTENT: own })).toEqual({ suffix: '', env: {}, pinnedId: null, captures: false });
    },
  );
});

describe('opencode home', () => {
  it.each([
    [{ HOME: '/h' }, '/h/.local/share/opencode/opencode.db'],
    [{ HOME: '/h', XDG_DATA_HOME: '/d' }, '/d/opencode/opencode.db'],
    [{ HOME: '/h', XDG_DATA_HOME: '/d', OPENCODE_DB: '/x/my.db' }, '/x/my.db'],
  ])('%j → %s', (env, db) => {
    expect(opencodeHome.resolve(env)).toBe(db);
  });

  it('is kept in a recipe by the variable that puts it there', () => {
    expect(opencodeHome.varsFor('/d/opencode/opencode.db')).toEqual({ XDG_DATA_HOME: '/d' });
    expect(opencodeHome.varsFor('/x/my.db')).toEqual({ OPENCODE_DB: '/x/my.db' });
  });
});

describe('opencode capture and exit hint', () => {
  it('reads the ids of the plugin lines, oldest first', () => {
    const capture = write(path.join(tempDir(), 'task-1-1.json'), [
      JSON.stringify({ type: 'session.created', id: MAIN, directory: '/w/app' }),
      'torn {',
      JSON.stringify({ type: 'session.updated', id: 'ses_bad' }),
      JSON.stringify({ type: 'session.updated', id: SID, directory: '/w/app' }),
    ].join('\n'));
    expect(resolveId(evidence('/nowhere.db', { captureFile: capture }), save)).toEqual({ id: SID, source: 'capture' });
  });

  it.each([
    [`  Session   Mock task title\n  Continue  opencode -s ${SID}\n`, SID],
    [`Continue  opencode -s ${MAIN}\nContinue  opencode -s ${SID}`, SID],
    [`opencode -s ${SID}x`, null],
    ['opencode -s ses_short', null],
  ])('%j → %s', (text, id) => {
    expect(scrapeExit('opencode', text)).toBe(id);
  });
});

describe('opencode store (9.4, 9.5)', () => {
  it('reads every row of the session table, the WAL frames opencode has not checkpointed included', () => {
    const read = readSqliteTable(database(), 'session');
    if (read.kind !== 'rows') throw new Error(JSON.stringify(read));
    const ids = read.rows.map((r) => r[read.columns.indexOf('id')]);
    expect(ids).toHaveLength(204);
    expect(ids).toContain(WAL_ONLY);
    const main = read.rows.find((r) => r[0] === MAIN)!;
    expect(main[read.columns.indexOf('title')]).toBe('x'.repeat(6000));
    expect(main[read.columns.indexOf('time_created')]).toBe(T);
    const withoutWal = readSqliteTable(database(false), 'session');
    expect(withoutWal.kind === 'rows' && withoutWal.rows.map((r) => r[0])).not.toContain(WAL_ONLY);
  });

  it('correlates the one parent-less row of this cwd created in the window, read through the WAL', () => {
    const db = database();
    expect(resolveId(evidence(db, { spawnedAt: T + 50_000 }), save)).toEqual({ id: WAL_ONLY, source: 'correlation' });
    // Two in the window (the main one and the WAL one): ambiguous, nothing.
    expect(resolveId(evidence(db), save)).toBeNull();
    expect(resolveId(evidence(db), { ...save, everHeld: new Set([WAL_ONLY]) })).toEqual({ id: MAIN, source: 'correlation' });
    // The child sits in the window too and never counts.
    expect(resolveId(evidence(db, { spawnedAt: T + 35_000, endedAt: T + 36_000 }), save)).toBeNull();
    expect(resolveId(evidence(db, { cwd: '/w/nowhere' }), save)).toBeNull();
  });

  it('never resumes a child, from the hint, the pin or the capture: a child stands for its root', () => {
    const db = database();
    expect(resolveId(evidence(db, { exitHint: CHILD, pinnedId: CHILD }), { ...save, correlate: false })).toEqual({ id: MAIN, source: 'exit-hint' });
    expect(conversationOf('opencode', CHILD, { home: db, cwd: '/w/app' })).toMatchObject({ kind: 'parent', id: MAIN, child: CHILD });
    expect(conversationOf('opencode', MAIN, { home: db, cwd: '/w/app' })).toEqual({ kind: 'own', id: MAIN });
    expect(resolveId(evidence(db, { exitHint: MAIN }), { ...save, correlate: false })).toEqual({ id: MAIN, source: 'exit-hint' });
    expect(storedConversation('opencode', db, '/w/app', CHILD)).toMatchObject({ found: false, why: expect.stringContaining('subagent') });
    expect(storedConversation('opencode', db, '/w/app', MAIN)).toEqual({ found: true, path: db });
    expect(storedConversation('opencode', db, '/w/app', SID)).toMatchObject({ found: false });
  });

  it('reports a damaged database as unreadable, never throws', () => {
    const db = database();
    const bytes = readFileSync(db);
    for (const at of [16, 100, 4096 + 3, 4096 * 2 + 8, bytes.length - 100]) {
      const copy = Buffer.from(bytes);
      copy.fill(0xff, at, at + 8);
      const file = write(path.join(tempDir(), 'damaged.db'), '');
      write(file, copy.toString('latin1'));
      expect(() => readSqliteTable(file, 'session')).not.toThrow();
    }
    expect(readSqliteTable(write(path.join(tempDir(), 'x.db'), 'not a database at all, longer than a hundred bytes'.repeat(4)), 'session')).toMatchObject({ kind: 'unreadable' });
    expect(readSqliteTable(path.join(tempDir(), 'none.db'), 'session')).toEqual({ kind: 'missing' });
  });
});

describe('opencode attention', () => {
  it.each([
    [{ type: 'session.status', sessionID: SID, status: 'busy' }, 'working'],
    [{ type: 'session.status', sessionID: SID, status: 'idle' }, 'waiting'],
    [{ type: 'session.idle', sessionID: SID }, 'waiting'],
    [{ type: 'permission.asked', sessionID: SID }, 'permission'],
    [{ type: 'permission.replied', sessionID: SID }, 'working'],
    [{ type: 'session.status', sessionID: 'ses_x', status: 'busy' }, null],
    [{ type: 'message.updated', sessionID: SID }, null],
  ])('%j → %s', (payload, attention) => {
    const result = opencodeSignal(payload);
    expect(result.kind === 'signal' ? result.signal.attention : null).toBe(attention);
  });
});

describe("fleetcom's opencode plugin", () => {
  it('writes parent-less sessions to the capture file and their status to the events file, and nothing of a child', async () => {
    const dir = tempDir();
    const plugin = write(path.join(dir, 'opencode-plugin.js'), OPENCODE_PLUGIN);
    const capture = path.join(dir, 'task-3-1.json');
    process.env.FLEETCOM_CAPTURE_FILE = capture;
    const mod = (await import(`${pathToFileURL(plugin).href}?t=${Date.now()}`)) as { FleetcomCapture: () => Promise<{ event: (e: unknown) => Promise<void> }> };
    expect(process.env.FLEETCOM_CAPTURE_FILE).toBeUndefined();
    const hooks = await mod.FleetcomCapture();
    const send = (type: string, properties: object) => hooks.event({ event: { id: 'evt', type, properties } });
    await send('session.created', { sessionID: MAIN, info: { id: MAIN, directory: '/w/app' } });
    await send('session.created', { sessionID: CHILD, info: { id: CHILD, parentID: MAIN, directory: '/w/app' } });
    await send('session.status', { sessionID: MAIN, status: { type: 'busy' } });
    await send('session.status', { sessionID: CHILD, status: { type: 'busy' } });
    await send('permission.asked', { sessionID: MAIN });
    await send('session.updated', { sessionID: MAIN });
    const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines(capture)).toEqual([{ type: 'session.created', id: MAIN, directory: '/w/app' }]);
    expect(lines(capture.replace(/\.json$/, '.events'))).toEqual([
      { type: 'session.status', sessionID: MAIN, status: 'busy' },
      { type: 'permission.asked', sessionID: MAIN },
    ]);
  });
});

describe("fleetcom's opencode plugin and a swept namespace", () => {
  const load = async (dir: string, capture: string) => {
    const plugin = write(path.join(dir, 'opencode-plugin.js'), OPENCODE_PLUGIN);
    process.env.FLEETCOM_CAPTURE_FILE = capture;
    const mod = (await import(`${pathToFileURL(plugin).href}?t=${Date.now()}-${Math.random()}`)) as { FleetcomCapture: () => Promise<{ event: (e: unknown) => Promise<void> }> };
    return mod.FleetcomCapture();
  };

  it('makes the removed namespace again (0700) and captures a session created while it was gone', async () => {
    const dir = tempDir();
    const capture = path.join(dir, 'ns', 'task-3-1.json');
    const hooks = await load(dir, capture);
    await hooks.event({ event: { id: 'evt', type: 'session.created', properties: { sessionID: MAIN, info: { id: MAIN, directory: '/w' } } } });
    expect(JSON.parse(readFileSync(capture, 'utf8'))).toEqual({ type: 'session.created', id: MAIN, directory: '/w' });
    expect(statSync(path.join(dir, 'ns')).mode & 0o777).toBe(0o700);
  });

  it('writes nothing into a namespace that is a symlink or writable by others', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'elsewhere'));
    symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, 'link'));
    mkdirSync(path.join(dir, 'open'));
    chmodSync(path.join(dir, 'open'), 0o777);
    for (const ns of ['link', 'open']) {
      const hooks = await load(dir, path.join(dir, ns, 'task-3-1.json'));
      await hooks.event({ event: { id: 'evt', type: 'session.created', properties: { sessionID: MAIN, info: { id: MAIN, directory: '/w' } } } });
    }
    expect(readdirSync(path.join(dir, 'elsewhere'))).toEqual([]);
    expect(readdirSync(path.join(dir, 'open'))).toEqual([]);
  });
});
