import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  conversationOf,
  detect,
  geminiCleanupWarning,
  geminiTitleWarning,
  geminiProjectHash,
  harnessFor,
  geminiSessionHasUser,
  instrument,
  resolveId,
  rewriteCommand,
  scrapeExit,
  storedConversation,
  type RunEvidence,
} from '../../src/harness/index.js';
import { ID, OTHER, tempDir, write } from './fixtures.js';

// Contract 9.1 and 9.3, with the store layout measured on gemini-cli 0.61.0.

const NEW = '7f3e2d1c-0b9a-4876-9543-210fedcba987';
const SESSION_CONTEXT = { type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.' }] };

/** A session file as gemini writes it: header, the `$set` of its context, then the records. */
function session(home: string, cwd: string, id: string, records: unknown[], opts: { dir?: string; minute?: string; header?: object } = {}): string {
  const name = `session-2026-12-01T${opts.minute ?? '20-14'}-${id.slice(0, 8)}.jsonl`;
  const file = path.join(home, '.gemini', 'tmp', path.basename(cwd), 'chats', ...(opts.dir ? [opts.dir] : []), name);
  const header = { sessionId: id, projectHash: geminiProjectHash(cwd), startTime: 'x', lastUpdated: 'x', kind: 'main', ...opts.header };
  const lines = [header, { $set: { messages: [{ id: 'c', ...SESSION_CONTEXT }] } }, ...records];
  return write(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

const said = (text: string) => ({ id: 'm', timestamp: 'x', type: 'user', content: [{ text }] });

function evidence(home: string, cwd: string, over: Partial<RunEvidence> = {}): RunEvidence {
  return { harness: 'gemini', cwd, home, captureFile: null, exitHint: null, pinnedId: null, spawnedAt: 0, endedAt: null, ...over };
}
const none = new Set<string>();
const opts = { now: 1, correlate: true, heldByOthers: none, everHeld: none };

describe('gemini detection (9.1)', () => {
  it.each([
    ['gemini', 'bare'],
    [`gemini --resume '${ID}'`, 'resume'],
    [`/usr/local/bin/gemini --resume ${ID}`, 'resume'],
    [`gemini -r ${ID}`, 'opaque'],
    ['gemini --resume latest', 'opaque'],
    ['gemini --resume 3', 'opaque'],
    [`gemini --session-id ${ID}`, 'opaque'],
    [`gemini --resume ${ID.toUpperCase()}`, 'opaque'],
    ["gemini 'fix it'", 'opaque'],
  ])('%s is %s', (command, form) => {
    expect(detect(command).form).toBe(form);
  });

  it('rewrites to `gemini --resume <id>` quoted', () => {
    expect(rewriteCommand('gemini', ID)).toBe(`gemini --resume '${ID}'`);
    expect(rewriteCommand('gemini', 'ses_dcd254f97ffeRjctlW5tG6xzJ7')).toBe('gemini');
  });
});

describe('gemini instrumentation (9.3)', () => {
  const input = { namespace: '/ns', captureFile: '/ns/task-1-1.json', newId: () => NEW, home: '/h', env: {} };
  it('pins a bare gemini with --session-id and nothing else', () => {
    const detection = detect('gemini');
    if (detection.form === 'opaque') throw new Error('opaque');
    expect(instrument({ ...input, detection })).toEqual({ suffix: ` --session-id '${NEW}'`, env: {}, pinnedId: NEW, captures: false });
  });
  it('leaves a resume form as it is, its target known', () => {
    const detection = detect(`gemini --resume ${ID}`);
    if (detection.form === 'opaque') throw new Error('opaque');
    expect(instrument({ ...input, detection })).toEqual({ suffix: '', env: {}, pinnedId: ID, captures: false });
  });
});

describe('gemini exit hint', () => {
  it.each([
    [`│  To resume this session: gemini --resume ${ID}    │`, ID],
    [`To resume work in this worktree: cd /w/tree && gemini --resume ${ID}`, ID],
    [`gemini --resume ${OTHER}\ngemini --resume ${ID}`, ID],
    [`gemini --resume ${ID}x`, null],
    [`Session ID:                 ${ID}`, null],
  ])('%j → %s', (text, id) => {
    expect(scrapeExit('gemini', text)).toBe(id);
  });
});

describe('gemini session files', () => {
  it('count with a typed message, not with only the session context gemini writes itself', () => {
    const home = tempDir();
    const cwd = '/w/app';
    session(home, cwd, ID, [said('hello')]);
    session(home, cwd, OTHER, []);
    expect(geminiSessionHasUser(home, cwd, ID)).toBe(true);
    expect(geminiSessionHasUser(home, cwd, OTHER)).toBe(false);
  });

  it('belong to their cwd (projectHash), their id and a main session only', () => {
    const home = tempDir();
    session(home, '/w/app', ID, [said('hello')]);
    expect(geminiSessionHasUser(home, '/w/other/app', ID)).toBe(false);
    const other = tempDir();
    session(other, '/w/app', ID, [said('hello')], { header: { sessionId: OTHER } });
    expect(geminiSessionHasUser(other, '/w/app', ID)).toBe(false);
    const sub = tempDir();
    session(sub, '/w/app', ID, [said('hello')], { header: { kind: 'subagent' } });
    expect(geminiSessionHasUser(sub, '/w/app', ID)).toBe(false);
  });

  it("never counts a subagent's session under chats/<parent id>/ (9.5)", () => {
    const home = tempDir();
    session(home, '/w/app', ID, [said('delegated task')], { dir: OTHER });
    expect(geminiSessionHasUser(home, '/w/app', ID)).toBe(false);
    expect(resolveId(evidence(home, '/w/app', { exitHint: ID, pinnedId: ID }), opts)).toBeNull();
  });

  it("takes a subagent's id as its parent's conversation when the parent is a main session here", () => {
    const home = tempDir();
    session(home, '/w/app', OTHER, [said('delegate this')]);
    session(home, '/w/app', ID, [said('delegated task')], { dir: OTHER });
    expect(conversationOf('gemini', ID, { home, cwd: '/w/app' })).toMatchObject({ kind: 'parent', id: OTHER, child: ID });
    expect(conversationOf('gemini', OTHER, { home, cwd: '/w/app' })).toEqual({ kind: 'own', id: OTHER });
    expect(resolveId(evidence(home, '/w/app', { exitHint: ID, pinnedId: ID }), opts)).toEqual({ id: OTHER, source: 'exit-hint' });
    // Its parent's session belongs to another directory: no conversation of this task.
    expect(conversationOf('gemini', ID, { home, cwd: '/w/other' })).toMatchObject({ kind: 'none', child: ID });
  });

  it("counts the resumed conversation through its later stub: either file of the id", () => {
    const home = tempDir();
    session(home, '/w/app', ID, [], { minute: '20-15' });
    session(home, '/w/app', ID, [said('hello')]);
    expect(geminiSessionHasUser(home, '/w/app', ID)).toBe(true);
  });

  it('decides the precedence: a hint of a conversation that never talked falls back to nothing', () => {
    const home = tempDir();
    session(home, '/w/app', ID, [said('hello')]);
    expect(resolveId(evidence(home, '/w/app', { exitHint: ID, pinnedId: ID }), opts)).toEqual({ id: ID, source: 'exit-hint' });
    expect(resolveId(evidence(home, '/w/app', { pinnedId: ID }), opts)).toEqual({ id: ID, source: 'pinned' });
    // `/quit` without a message prints a hint, but there is no file to resume.
    expect(resolveId(evidence(home, '/w/app', { exitHint: OTHER, pinnedId: OTHER }), opts)).toBeNull();
  });

  it('tells doctor where it looked', () => {
    const home = tempDir();
    expect(storedConversation('gemini', home, '/w/app', ID)).toMatchObject({ found: false, why: expect.stringContaining('no gemini session file') });
    const file = session(home, '/w/app', ID, [said('hi')]);
    expect(storedConversation('gemini', home, '/w/app', ID)).toEqual({ found: true, path: file });
  });
});

describe("gemini's session cleanup warning", () => {
  it.each([
    ['no settings file', null, true],
    ['cleanup unset', { privacy: { usageStatisticsEnabled: false } }, true],
    ['cleanup on', { general: { sessionRetention: { enabled: true } } }, true],
    ['cleanup off', { general: { sessionRetention: { enabled: false } } }, false],
  ])('%s: warns %s', (_title, settings, warns) => {
    const home = tempDir();
    if (settings !== null) write(path.join(home, '.gemini', 'settings.json'), `// mine\n${JSON.stringify(settings)}\n`);
    const warning = geminiCleanupWarning(home);
    expect(warning !== null).toBe(warns);
    if (warns) expect(warning).toContain('"general": {"sessionRetention": {"enabled": false}}');
  });
});

describe("gemini's title warning (its attention)", () => {
  it.each([
    ['no settings file', null, null],
    ['title on (the default)', { ui: { theme: 'x' } }, null],
    ['title hidden', { ui: { hideWindowTitle: true } }, '"ui.hideWindowTitle" is true'],
    ['title fixed', { ui: { dynamicWindowTitle: false } }, '"ui.dynamicWindowTitle" is false'],
    ['not an object', ['ui'], null],
  ])('%s', (_title, settings, says) => {
    const home = tempDir();
    if (settings !== null) write(path.join(home, '.gemini', 'settings.json'), `// mine\n${JSON.stringify(settings)}\n`);
    const warning = geminiTitleWarning(home);
    if (says === null) expect(warning).toBeNull();
    else expect(warning).toContain(says);
  });
});

describe("gemini's settings warnings for doctor", () => {
  it('gives both from one settings file: the cleanup on and the title hidden', () => {
    const home = tempDir();
    write(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ ui: { hideWindowTitle: true } }));
    const warnings = harnessFor('gemini').warnings(home);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('session cleanup is on');
    expect(warnings[1]).toContain('"ui.hideWindowTitle" is true');
  });
});
