import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  detect,
  harnessFor,
  instrument,
  piProjectDir,
  piSignal,
  resolveId,
  rewriteCommand,
  scrapeExit,
  storedConversation,
  type AgentDetection,
  type RunEvidence,
} from '../../src/harness/index.js';
import { PI_EXTENSION } from '../../src/harness/pi/extension.js';
import { ID, OTHER, tempDir, write } from './fixtures.js';

// pi as measured on 1.6.0: the launch forms, the session files, the extension's lines.

const CWD = '/w/app';
const T = 1796284438561;
const header = (id: string) => JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-12-03T07:53:57.077Z', cwd: CWD });
const userLine = JSON.stringify({ type: 'message', id: 'a1b2c3d4', parentId: null, message: { role: 'user', content: 'hi' } });

function session(home: string, id: string, lines: string[], cwd = CWD): string {
  return write(path.join(home, 'sessions', piProjectDir(cwd), `2026-12-03T07-53-57-077Z_${id}.jsonl`), `${lines.join('\n')}\n`);
}

function evidence(home: string, over: Partial<RunEvidence> = {}): RunEvidence {
  return { harness: 'pi', cwd: CWD, home, captureFile: null, exitHint: null, pinnedId: null, spawnedAt: T, endedAt: T + 60_000, ...over };
}
const none = new Set<string>();
const ls = { now: T + 90_000, correlate: false, heldByOthers: none, everHeld: none };

describe('pi launch forms', () => {
  it.each([
    ['pi', 'bare'],
    [`pi --session ${ID}`, 'resume'],
    [`pi --session '${ID}'`, 'resume'],
    [`pi --session-id ${ID}`, 'opaque'],
    ['pi --session abc', 'opaque'],
    ['pi -c', 'opaque'],
  ])('%s is %s', (command, form) => {
    expect(detect(command).form).toBe(form);
  });

  it('pins a bare pi and loads the extension; a resume form gets the extension alone', () => {
    const bare = detect('pi') as AgentDetection;
    const plan = instrument({ detection: bare, namespace: '/run/ns', captureFile: '/run/ns/task-1-0.json', newId: () => ID, home: '/h/.pi/agent', env: {} });
    expect(plan).toEqual({ suffix: ` --session-id '${ID}' -e '/run/ns/pi-extension.js'`, env: { FLEETCOM_CAPTURE_FILE: '/run/ns/task-1-0.json' }, pinnedId: ID, captures: true });
    const resume = detect(`pi --session ${OTHER}`) as AgentDetection;
    expect(instrument({ detection: resume, namespace: '/run/ns', captureFile: '/c', newId: () => ID, home: '/h', env: {} })).toMatchObject({ suffix: " -e '/run/ns/pi-extension.js'", pinnedId: OTHER });
    expect(rewriteCommand('pi', ID)).toBe(`pi --session '${ID}'`);
  });

  it('keeps its sessions in PI_CODING_AGENT_DIR, else ~/.pi/agent', () => {
    const home = harnessFor('pi').home;
    expect(home.resolve({ HOME: '/u' })).toBe('/u/.pi/agent');
    expect(home.resolve({ HOME: '/u', PI_CODING_AGENT_DIR: '/elsewhere' })).toBe('/elsewhere');
    expect(home.defaults('/u')).toEqual({ PI_CODING_AGENT_DIR: '/u/.pi/agent' });
  });

  it('encodes the cwd as pi does', () => {
    expect(piProjectDir('/tmp/ab-exp/proj')).toBe('--tmp-ab-exp-proj--');
    expect(piProjectDir('/a:b\\c')).toBe('--a-b-c--');
  });
});

describe('pi exit hints', () => {
  it.each([
    [`To resume this session:\npi --session ${ID}\n`, ID],
    [`To resume this session:\npi --session-dir /x/y --session ${ID}\n`, ID],
    [`pi --session ${ID}x`, null],
    [`pi --session-id ${ID}`, null],
    ['To resume this session:\npi --session 1234\n', null],
  ])('%j gives %s', (text, id) => {
    expect(scrapeExit('pi', text)).toBe(id);
  });
});

describe('pi sessions: which id counts', () => {
  it('takes the last session_start of the capture once its file holds a user message', () => {
    const home = tempDir();
    const capture = write(path.join(tempDir(), 'task-1-0.json'), [
      JSON.stringify({ type: 'session_start', reason: 'startup', id: OTHER, cwd: CWD }),
      JSON.stringify({ type: 'session_start', reason: 'new', id: ID, cwd: CWD }),
    ].join('\n'));
    const run = evidence(home, { captureFile: capture, pinnedId: OTHER });
    // Nothing written yet: neither the capture nor the pin counts.
    expect(resolveId(run, ls)).toBeNull();
    session(home, OTHER, [header(OTHER), userLine]);
    expect(resolveId(run, ls)).toEqual({ id: OTHER, source: 'pinned' });
    session(home, ID, [header(ID)]);
    expect(resolveId(run, ls)).toEqual({ id: OTHER, source: 'pinned' });
    session(home, ID, [header(ID), userLine]);
    expect(resolveId(run, ls)).toEqual({ id: ID, source: 'capture' });
  });

  it('a /new, the capture swept, then a turn: the turn line names the session it talked in', () => {
    const home = tempDir();
    session(home, OTHER, [header(OTHER), userLine]);
    // What the watcher recorded before the sweep: the pinned session (the /new's held nothing).
    const captureFile = path.join(tempDir(), 'task-1-0.json');
    const run = evidence(home, { captureFile, pinnedId: OTHER, capturedBefore: OTHER });
    session(home, ID, [header(ID), userLine]);
    // The capture file gone: only the recorded id is left, which the agent has left.
    expect(resolveId(run, ls)).toEqual({ id: OTHER, source: 'capture' });
    // The turn's end writes the capture file again, naming the session it talked in.
    write(captureFile, `${JSON.stringify({ type: 'turn', id: ID, cwd: CWD })}\n`);
    expect(resolveId(run, ls)).toEqual({ id: ID, source: 'capture' });
  });

  it('never counts a file whose header names another id, or another directory', () => {
    const home = tempDir();
    session(home, ID, [header(OTHER), userLine]);
    session(home, OTHER, [header(OTHER), userLine], '/w/other');
    expect(resolveId(evidence(home, { pinnedId: ID }), ls)).toBeNull();
    expect(resolveId(evidence(home, { pinnedId: OTHER }), ls)).toBeNull();
    expect(storedConversation('pi', home, CWD, ID)).toMatchObject({ found: false, why: expect.stringMatching(/holds no message/) });
  });

  it('doctor finds a stored conversation, and says where it looked for a missing one', () => {
    const home = tempDir();
    const file = session(home, ID, [header(ID), userLine]);
    expect(storedConversation('pi', home, CWD, ID)).toEqual({ found: true, path: file });
    expect(storedConversation('pi', home, CWD, OTHER)).toMatchObject({ found: false, why: expect.stringContaining(`_${OTHER}.jsonl`) });
  });

  it('warns when settings.json moves the sessions elsewhere', () => {
    const home = tempDir();
    expect(harnessFor('pi').warnings(home)).toEqual([]);
    write(path.join(home, 'settings.json'), JSON.stringify({ sessionDir: '/x' }));
    expect(harnessFor('pi').warnings(home)).toEqual([expect.stringMatching(/sets sessionDir/)]);
  });
});

describe("pi's extension events (attention)", () => {
  it.each([
    [{ type: 'session_start', sessionId: ID }, 'waiting', true],
    [{ type: 'agent_start', sessionId: ID }, 'working', false],
    [{ type: 'agent_settled', sessionId: ID }, 'waiting', false],
    [{ type: 'session_shutdown', sessionId: ID, reason: 'quit' }, null, false],
  ])('%j → %s', (payload, attention, starts) => {
    expect(piSignal(payload)).toMatchObject({ kind: 'signal', signal: { attention, starts, sessionId: ID } });
  });

  it.each([
    [{ type: 'session_shutdown', sessionId: ID, reason: 'new' }],
    [{ type: 'turn_end', sessionId: ID }],
    [{ type: 'agent_start', sessionId: 'not-an-id' }],
    [{ type: 'agent_start' }],
    ['agent_start'],
  ])('%j is ignored', (payload) => {
    expect(piSignal(payload).kind).toBe('ignored');
  });
});

const KEY = Symbol.for('fleetcom.pi.capture');
afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[KEY];
});

describe("pi's extension, run as pi runs it", () => {
  it('writes each session_start and the end of each turn to the capture file, the attention events beside it, and keeps the path across reloads', async () => {
    const dir = tempDir();
    const file = write(path.join(dir, 'pi-extension.js'), PI_EXTENSION);
    const capture = path.join(dir, 'task-3-0.json');
    process.env.FLEETCOM_CAPTURE_FILE = capture;
    const handlers = new Map<string, Array<(event: unknown, ctx: unknown) => void>>();
    const pi = { on: (event: string, handler: (event: unknown, ctx: unknown) => void) => handlers.set(event, [...(handlers.get(event) ?? []), handler]) };
    let id = ID;
    const ctx = { cwd: CWD, sessionManager: { getSessionId: () => id } };
    const emit = (event: string, fields: object = {}) => { for (const h of handlers.get(event) ?? []) h({ type: event, ...fields }, ctx); };
    const mod = (await import(pathToFileURL(file).href)) as { default: (api: typeof pi) => void };
    mod.default(pi);
    expect(process.env.FLEETCOM_CAPTURE_FILE).toBeUndefined();
    emit('session_start', { reason: 'startup' });
    emit('agent_start');
    emit('agent_settled', { aborted: false });
    // /new: the old runtime shuts down, pi loads the extension again into the new one.
    emit('session_shutdown', { reason: 'new' });
    handlers.clear();
    const again = (await import(`${pathToFileURL(file).href}?reload`)) as typeof mod;
    again.default(pi);
    id = OTHER;
    emit('session_start', { reason: 'new' });
    const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    emit('agent_start');
    emit('agent_settled', { aborted: false });
    expect(lines(capture)).toEqual([
      { type: 'session_start', reason: 'startup', id: ID, cwd: CWD },
      { type: 'turn', id: ID, cwd: CWD },
      { type: 'session_start', reason: 'new', id: OTHER, cwd: CWD },
      { type: 'turn', id: OTHER, cwd: CWD },
    ]);
    expect(lines(path.join(dir, 'task-3-0.events'))).toEqual([
      { type: 'session_start', sessionId: ID },
      { type: 'agent_start', sessionId: ID },
      { type: 'agent_settled', sessionId: ID },
      { type: 'session_shutdown', sessionId: ID, reason: 'new' },
      { type: 'session_start', sessionId: OTHER },
      { type: 'agent_start', sessionId: OTHER },
      { type: 'agent_settled', sessionId: OTHER },
    ]);
    expect(spawnSync('stat', ['-c', '%a', capture], { encoding: 'utf8' }).stdout.trim()).toBe('600');
  });
});
