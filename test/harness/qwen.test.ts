import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  conversationOf,
  detect,
  harnessFor,
  homeVarsToKeep,
  instrument,
  qwenProjectDir,
  qwenTranscript,
  qwenTranscriptHasUser,
  resolveHome,
  resolveId,
  rewriteCommand,
  scrapeExit,
  storedConversation,
  type RunEvidence,
} from '../../src/harness/index.js';
import { ID, OTHER, tempDir, write } from './fixtures.js';

// Contract 9.1, 9.3 and 9.5 for qwen-code, with the store layout measured on 0.24.4.

const NEW = '7f3e2d1c-0b9a-4876-9543-210fedcba987';
const CWD = '/w/my app';

/** A record as qwen writes it into a transcript. */
function rec(id: string, type: string, text: string, over: object = {}): string {
  return JSON.stringify({ uuid: 'u', parentUuid: null, sessionId: id, timestamp: 'x', type, cwd: CWD, version: '0.24.4', message: { role: type === 'user' ? 'user' : 'model', parts: [{ text }] }, ...over });
}
function transcript(home: string, id: string, lines: string[], cwd = CWD): string {
  return write(qwenTranscript(home, cwd, id), `${lines.join('\n')}\n`);
}

function evidence(home: string, over: Partial<RunEvidence> = {}): RunEvidence {
  return { harness: 'qwen', cwd: CWD, home, captureFile: null, exitHint: null, pinnedId: null, spawnedAt: 0, endedAt: null, ...over };
}
const none = new Set<string>();
const opts = { now: 1, correlate: true, heldByOthers: none, everHeld: none };

describe('qwen detection (9.1)', () => {
  it.each([
    ['qwen', 'bare'],
    [`qwen --resume '${ID}'`, 'resume'],
    [`/usr/local/bin/qwen --resume ${ID}`, 'resume'],
    [`qwen -r ${ID}`, 'opaque'],
    ['qwen --resume', 'opaque'],
    [`qwen --session-id ${ID}`, 'opaque'],
    ['qwen --continue', 'opaque'],
    [`qwen --resume ${ID.toUpperCase()}`, 'opaque'],
    ["qwen 'fix it'", 'opaque'],
  ])('%s is %s', (command, form) => {
    expect(detect(command).form).toBe(form);
  });

  it('rewrites to `qwen --resume <id>` quoted, and refuses an opencode id', () => {
    expect(rewriteCommand('qwen', ID)).toBe(`qwen --resume '${ID}'`);
    expect(rewriteCommand('qwen', 'ses_dcd254f97ffeRjctlW5tG6xzJ7')).toBe('qwen');
  });
});

describe('qwen instrumentation (9.3)', () => {
  // The machine's own system settings folder is never consulted here: the variable names an empty one.
  const base = { namespace: '/ns', captureFile: '/ns/task-1-1.json', newId: () => NEW, home: '/h' };
  const input = { ...base, env: { QWEN_CODE_SYSTEM_SETTINGS_PATH: '/nonexistent/fleetcom-test/settings.json' } };
  const hooks = { FLEETCOM_CAPTURE_FILE: '/ns/task-1-1.json', QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/ns/qwen-system-defaults.json', QWEN_CODE: '' };
  it('pins a bare qwen with --session-id (a v4 id: qwen takes versions 1 to 5) and names its hooks as the system defaults', () => {
    const detection = detect('qwen');
    if (detection.form === 'opaque') throw new Error('opaque');
    expect(instrument({ ...input, detection })).toEqual({ suffix: ` --session-id '${NEW}'`, env: hooks, pinnedId: NEW, captures: true });
  });
  it('leaves a resume form as it is, its target known, its hooks named', () => {
    const detection = detect(`qwen --resume ${ID}`);
    if (detection.form === 'opaque') throw new Error('opaque');
    expect(instrument({ ...input, detection })).toEqual({ suffix: '', env: hooks, pinnedId: ID, captures: true });
  });
  it('adds no hooks where they would stand in for a system defaults file: the pin alone', () => {
    const detection = detect('qwen');
    if (detection.form === 'opaque') throw new Error('opaque');
    const pinOnly = { suffix: ` --session-id '${NEW}'`, env: {}, pinnedId: NEW, captures: false };
    // The user names one (it need not exist: qwen would read it)…
    expect(instrument({ ...base, env: { ...input.env, QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/etc/mine.json' }, detection })).toEqual(pinOnly);
    // …or the machine has one beside its system settings.
    const admin = tempDir();
    write(path.join(admin, 'system-defaults.json'), '{"model": {"name": "x"}}');
    expect(instrument({ ...base, env: { QWEN_CODE_SYSTEM_SETTINGS_PATH: path.join(admin, 'settings.json') }, detection })).toEqual(pinOnly);
    // An empty variable is unset to qwen.
    expect(instrument({ ...base, env: { ...input.env, QWEN_CODE_SYSTEM_DEFAULTS_PATH: '' }, detection })).toMatchObject({ captures: true });
  });
});

describe('qwen capture', () => {
  const cleared = () => write(path.join(tempDir(), 'task-1-1.json'), JSON.stringify({ session_id: OTHER, hook_event_name: 'SessionStart', source: 'clear' }));
  it("reads SessionStart's session_id only, and counts it once its transcript holds a message", () => {
    const home = tempDir();
    const captureFile = cleared();
    const qwen = harnessFor('qwen');
    expect(qwen.parseCapture(JSON.stringify({ session_id: OTHER, hook_event_name: 'SessionStart' }))).toEqual([OTHER]);
    expect(qwen.parseCapture(JSON.stringify({ session_id: OTHER, hook_event_name: 'Stop' }))).toEqual([]);
    expect(qwen.parseCapture(JSON.stringify({ session_id: 'nope', hook_event_name: 'SessionStart' }))).toEqual([]);
    expect(qwen.captureId(evidence(home, { captureFile, pinnedId: ID }), 1)).toBeNull();
    transcript(home, OTHER, [rec(OTHER, 'user', 'after the clear')]);
    expect(qwen.captureId(evidence(home, { captureFile, pinnedId: ID }), 1)).toBe(OTHER);
  });
  it('after /clear with nothing said since, resumes neither the new session nor the pin it left', () => {
    const fresh = tempDir();
    const captureFile = cleared();
    transcript(fresh, ID, [rec(ID, 'user', 'before the clear')]);
    expect(resolveId(evidence(fresh, { captureFile, pinnedId: ID }), opts)).toBeNull();
    expect(resolveId(evidence(fresh, { pinnedId: ID }), opts)).toEqual({ id: ID, source: 'pinned' });
  });
});

describe('qwen home', () => {
  it('is QWEN_HOME, else ~/.qwen, and a recipe keeps QWEN_HOME only when it is not the default', () => {
    expect(resolveHome('qwen', { HOME: '/u', QWEN_HOME: '/q' })).toBe('/q');
    expect(resolveHome('qwen', { HOME: '/u' })).toBe('/u/.qwen');
    expect(homeVarsToKeep('qwen', '/q', '/u')).toEqual({ QWEN_HOME: '/q' });
    expect(homeVarsToKeep('qwen', '/u/.qwen', '/u')).toEqual({});
  });
  it('keeps a cwd in a project folder named by it, every non-alphanumeric a dash', () => {
    expect(qwenProjectDir('/q', '/tmp/aa-exp/q/proj')).toBe('/q/projects/-tmp-aa-exp-q-proj');
    expect(qwenTranscript('/q', CWD, ID)).toBe(`/q/projects/-w-my-app/chats/${ID}.jsonl`);
  });
});

describe('qwen exit hint', () => {
  it.each([
    [`To continue this session, run\nqwen --resume ${ID}\n`, ID],
    [`qwen --resume ${OTHER}\n\nTo continue this session, run\nqwen --resume ${ID}`, ID],
    [`qwen --resume ${ID}x`, null],
    [`qwen --session-id ${ID}`, null],
  ])('%j → %s', (text, id) => {
    expect(scrapeExit('qwen', text)).toBe(id);
  });
});

describe('qwen transcripts', () => {
  it('count with a typed message of this session, not with only its runtime file or bookkeeping', () => {
    const home = tempDir();
    transcript(home, ID, [rec(ID, 'user', 'hello'), rec(ID, 'assistant', 'hi')]);
    write(path.join(qwenProjectDir(home, CWD), 'chats', `${OTHER}.runtime.json`), '{"session_id":"x"}\n');
    expect(qwenTranscriptHasUser(home, CWD, ID)).toBe(true);
    expect(qwenTranscriptHasUser(home, CWD, OTHER)).toBe(false);
    const other = tempDir();
    transcript(other, ID, [rec(ID, 'system', 'snapshot'), rec(ID, 'user', '  '), rec(OTHER, 'user', 'not this session'), '{not json', 'null']);
    expect(qwenTranscriptHasUser(other, CWD, ID)).toBe(false);
  });

  it('belong to their cwd', () => {
    const home = tempDir();
    transcript(home, ID, [rec(ID, 'user', 'hello')]);
    expect(qwenTranscriptHasUser(home, '/w/other', ID)).toBe(false);
  });

  it('decide the precedence: a pin that never talked falls back to nothing', () => {
    const home = tempDir();
    transcript(home, ID, [rec(ID, 'user', 'hello')]);
    expect(resolveId(evidence(home, { exitHint: ID, pinnedId: ID }), opts)).toEqual({ id: ID, source: 'exit-hint' });
    expect(resolveId(evidence(home, { pinnedId: ID }), opts)).toEqual({ id: ID, source: 'pinned' });
    expect(resolveId(evidence(home, { pinnedId: OTHER }), opts)).toBeNull();
  });

  it("never takes a subagent's transcript for the task's: it stands for the session that ran it (9.5)", () => {
    const home = tempDir();
    const agent = 'a1b2c3d4e5f60718';
    transcript(home, OTHER, [rec(OTHER, 'user', 'delegate this')]);
    write(path.join(qwenProjectDir(home, CWD), 'subagents', OTHER, `agent-${agent}.jsonl`), `${rec(OTHER, 'user', 'the task')}\n`);
    expect(harnessFor('qwen').conversationOf(agent, { home, cwd: CWD })).toMatchObject({ kind: 'parent', id: OTHER, child: agent });
    expect(conversationOf('qwen', OTHER, { home, cwd: CWD })).toEqual({ kind: 'own', id: OTHER });
    // A subagent of a session with no conversation here: none.
    write(path.join(qwenProjectDir(home, CWD), 'subagents', ID, `agent-${NEW}.jsonl`), '{}\n');
    expect(conversationOf('qwen', NEW, { home, cwd: CWD })).toMatchObject({ kind: 'none', child: NEW });
  });

  it('tells doctor where it looked', () => {
    const home = tempDir();
    expect(storedConversation('qwen', home, CWD, ID)).toMatchObject({ found: false, why: expect.stringContaining('no qwen transcript') });
    const file = transcript(home, ID, [rec(ID, 'system', 'x')]);
    expect(storedConversation('qwen', home, CWD, ID)).toMatchObject({ found: false, why: expect.stringContaining('holds no message') });
    transcript(home, ID, [rec(ID, 'user', 'hi')]);
    expect(storedConversation('qwen', home, CWD, ID)).toEqual({ found: true, path: file });
  });
});

describe('qwen started by hand (probe)', () => {
  const proc = (argv: string[]) => ({ pid: 1, start: '1', argv, env: {}, cwd: CWD, open: { files: [], daemonFiles: [] } });
  it('names the conversation its argv pins or resumes, and none otherwise', () => {
    const probe = harnessFor('qwen').probe;
    expect(probe.program(['node', '/usr/local/bin/qwen', '--resume', ID], ['/usr/local/bin'])).toBe('qwen');
    expect(probe.traces(proc(['qwen', '--session-id', ID]), '/q').conversation).toMatchObject({ kind: 'id', id: ID });
    expect(probe.traces(proc(['qwen', '-r', ID]), '/q').conversation).toMatchObject({ kind: 'id', id: ID });
    expect(probe.traces(proc(['qwen']), '/q').conversation).toMatchObject({ kind: 'none' });
  });
});

describe('qwen warnings (doctor)', () => {
  it("names a system defaults file fleetcom's hooks would stand in for, and hooks the user turned off", () => {
    const home = tempDir();
    const qwen = harnessFor('qwen');
    const none = { QWEN_CODE_SYSTEM_SETTINGS_PATH: '/nonexistent/fleetcom-test/settings.json' };
    expect(qwen.warnings(home, none)).toEqual([]);
    expect(qwen.warnings(home, { ...none, QWEN_CODE_SYSTEM_DEFAULTS_PATH: '/etc/mine.json' })).toEqual([expect.stringContaining('/etc/mine.json, which fleetcom')]);
    write(path.join(home, 'settings.json'), '{\n  // mine\n  "disableAllHooks": true\n}\n');
    expect(qwen.warnings(home, none)).toEqual([expect.stringContaining('"disableAllHooks" is true')]);
  });
});
