import { spawnSync } from 'node:child_process';
import { readFileSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  copilotSignal,
  detect,
  harnessFor,
  instrument,
  resolveId,
  rewriteCommand,
  scrapeExit,
  storedConversation,
  type AgentDetection,
  type AgentProcess,
  type RunEvidence,
} from '../../src/harness/index.js';
import { COPILOT_HOOKS, COPILOT_HOOKS_FILE, COPILOT_PLUGIN } from '../../src/harness/copilot/plugin.js';
import { ID, OTHER, tempDir, write } from './fixtures.js';

// GitHub Copilot CLI as measured on 1.0.102: the launch forms, the session directories, the
// plugin's hooks and the lock a running copilot holds open.

const CWD = '/w/app';
const T = 1796284584923;
const copilot = harnessFor('copilot');
const userEvent = JSON.stringify({ type: 'user.message', data: { content: 'hi' }, id: 'e1', timestamp: '2026-12-03T07:56:25.849Z' });
const startEvent = JSON.stringify({ type: 'session.start', data: { sessionId: ID, copilotVersion: '1.0.102', context: { cwd: CWD } } });
/** The SessionStart payload copilot 1.0.102 sent a plugin's PascalCase hook. */
const sessionStart = (id: string) => JSON.stringify({ hook_event_name: 'SessionStart', session_id: id, timestamp: '2026-12-03T07:56:24.923Z', cwd: CWD, source: 'new', initial_prompt: 'hi' });

function session(home: string, id: string, events: string[] | null): string {
  const dir = path.join(home, 'session-state', id);
  write(path.join(dir, 'workspace.yaml'), `id: ${id}\ncwd: ${CWD}\n`);
  if (events !== null) write(path.join(dir, 'events.jsonl'), `${events.join('\n')}\n`);
  return dir;
}

function evidence(home: string, over: Partial<RunEvidence> = {}): RunEvidence {
  return { harness: 'copilot', cwd: CWD, home, captureFile: null, exitHint: null, pinnedId: null, spawnedAt: T, endedAt: T + 60_000, ...over };
}
const none = new Set<string>();
const ls = { now: T + 90_000, correlate: false, heldByOthers: none, everHeld: none };

describe('copilot launch forms', () => {
  it.each([
    ['copilot', 'bare'],
    [`copilot --resume ${ID}`, 'resume'],
    [`copilot --resume '${ID}'`, 'resume'],
    // One word: it runs as typed, uninstrumented.
    [`copilot --resume=${ID}`, 'opaque'],
    [`copilot --session-id ${ID}`, 'opaque'],
    ['copilot --resume my-name', 'opaque'],
    ['copilot -p "fix it"', 'opaque'],
  ])('%s is %s', (command, form) => {
    expect(detect(command).form).toBe(form);
  });

  it('pins a bare copilot and names the namespace as a plugin directory; a resume form gets the plugin alone', () => {
    const bare = detect('copilot') as AgentDetection;
    expect(instrument({ detection: bare, namespace: '/run/ns', captureFile: '/run/ns/task-1-0.json', newId: () => ID, home: '/h/.copilot', env: {} }))
      .toEqual({ suffix: ` --session-id '${ID}' --plugin-dir '/run/ns'`, env: { FLEETCOM_CAPTURE_FILE: '/run/ns/task-1-0.json' }, pinnedId: ID, captures: true });
    const resume = detect(`copilot --resume ${OTHER}`) as AgentDetection;
    expect(instrument({ detection: resume, namespace: '/run/ns', captureFile: '/c', newId: () => ID, home: '/h', env: {} })).toMatchObject({ suffix: " --plugin-dir '/run/ns'", pinnedId: OTHER });
    expect(rewriteCommand('copilot', ID)).toBe(`copilot --resume '${ID}'`);
    expect(copilot.home.resolve({ HOME: '/u' })).toBe('/u/.copilot');
    expect(copilot.home.resolve({ HOME: '/u', COPILOT_HOME: '/c' })).toBe('/c');
  });

  it.each([
    [`  ▔▔▔▔    Resume     copilot --resume=${ID}\n`, ID],
    [`copilot --resume ${ID}`, ID],
    [`copilot --resume=${ID}x`, null],
    ['Resume     copilot --resume=<id>', null],
  ])('the hint %j gives %s', (text, id) => {
    expect(scrapeExit('copilot', text)).toBe(id);
  });
});

describe("copilot's plugin", () => {
  it('names its hooks file; SessionStart captures, and every attention hook appends to the events file', () => {
    expect(JSON.parse(COPILOT_PLUGIN)).toMatchObject({ name: 'fleetcom', hooks: COPILOT_HOOKS_FILE });
    const hooks = (JSON.parse(COPILOT_HOOKS) as { version: number; hooks: Record<string, Array<{ type: string; bash: string }>> });
    expect(hooks.version).toBe(1);
    expect(Object.keys(hooks.hooks).sort()).toEqual(['Notification', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    const dir = tempDir();
    const capture = path.join(dir, 'task-2-0.json');
    for (const hook of hooks.hooks.SessionStart!) {
      const r = spawnSync('/bin/sh', ['-c', hook.bash], { input: sessionStart(ID), env: { PATH: process.env.PATH, FLEETCOM_CAPTURE_FILE: capture }, encoding: 'utf8' });
      expect(r.status).toBe(0);
    }
    expect(readFileSync(capture, 'utf8')).toBe(sessionStart(ID));
    expect(readFileSync(path.join(dir, 'task-2-0.events'), 'utf8')).toBe(`${sessionStart(ID)}\n`);
    // Without the variable (a copilot the user runs elsewhere with the plugin) the hooks do nothing and succeed.
    for (const hook of hooks.hooks.SessionStart!) expect(spawnSync('/bin/sh', ['-c', hook.bash], { input: sessionStart(ID), env: { PATH: process.env.PATH } }).status).toBe(0);
  });
});

describe('copilot sessions: which id counts', () => {
  it('takes the SessionStart of the capture once the session holds a user message', () => {
    const home = tempDir();
    const capture = write(path.join(tempDir(), 'task-1-0.json'), sessionStart(ID));
    const run = evidence(home, { captureFile: capture, pinnedId: OTHER });
    session(home, OTHER, null);
    session(home, ID, [startEvent]);
    expect(resolveId(run, ls)).toBeNull();
    session(home, ID, [startEvent, userEvent]);
    expect(resolveId(run, ls)).toEqual({ id: ID, source: 'capture' });
    expect(resolveId(evidence(home, { pinnedId: ID }), ls)).toEqual({ id: ID, source: 'pinned' });
  });

  it('ignores a capture that is not a SessionStart payload with a valid id', () => {
    const home = tempDir();
    session(home, ID, [userEvent]);
    for (const text of ['not json', JSON.stringify({ session_id: 'x' }), JSON.stringify([ID])]) {
      const capture = write(path.join(tempDir(), 'task-1-0.json'), text);
      expect(resolveId(evidence(home, { captureFile: capture }), ls)).toBeNull();
    }
  });

  it('doctor: a session with a message is found; an empty or missing one is not', () => {
    const home = tempDir();
    const dir = session(home, ID, [startEvent, userEvent]);
    expect(storedConversation('copilot', home, CWD, ID)).toEqual({ found: true, path: dir });
    session(home, OTHER, null);
    expect(storedConversation('copilot', home, CWD, OTHER)).toMatchObject({ found: false, why: expect.stringMatching(/holds no message/) });
    expect(storedConversation('copilot', tempDir(), CWD, ID)).toMatchObject({ found: false, why: expect.stringMatching(/no copilot session directory/) });
  });

  it('warns when copilot\'s settings turn every hook off', () => {
    const home = tempDir();
    expect(copilot.warnings(home)).toEqual([]);
    write(path.join(home, 'settings.json'), JSON.stringify({ disableAllHooks: true }));
    expect(copilot.warnings(home)).toEqual([expect.stringMatching(/disableAllHooks/)]);
  });
});

describe('who holds a copilot session', () => {
  it('names the newest inuse.<pid>.hold of the session, and only such files look like one', () => {
    const home = tempDir();
    const dir = session(home, ID, [userEvent]);
    const probe = copilot.ownership;
    if (probe.kind !== 'open-file') throw new Error('copilot: an open-file probe');
    expect(probe.file(home, ID)).toBeNull();
    const old = write(path.join(dir, 'inuse.100.hold'), '');
    utimesSync(old, new Date(T - 60_000), new Date(T - 60_000));
    const live = write(path.join(dir, 'inuse.200.hold'), '');
    write(path.join(dir, 'inuse.300.lock'), '');
    expect(probe.file(home, ID)).toBe(live);
    expect(probe.looksLike(live)).toBe(true);
    expect(probe.looksLike(path.join(dir, 'inuse.300.lock'))).toBe(false);
    expect(probe.looksLike('/tmp/inuse.1.hold')).toBe(false);
  });

  it('adopt: a hand-started copilot holds its session by the lock its binary keeps open', () => {
    const home = '/h/.copilot';
    const proc = (files: string[]): AgentProcess => ({ pid: 1476, start: '1', argv: ['node', '/x/node_modules/.bin/copilot'], env: {}, cwd: CWD, open: { files, daemonFiles: [] } });
    const hold = (id: string, pid = 1514) => `${home}/session-state/${id}/inuse.${pid}.hold`;
    expect(copilot.probe.program(['node', '/x/node_modules/.bin/copilot', '--resume', ID], [])).toBe('/x/node_modules/.bin/copilot');
    expect(copilot.probe.traces(proc([hold(ID), '/h/.copilot/logs/x.log']), home)).toEqual({ conversation: { kind: 'id', id: ID, from: `copilot session lock ${home}/session-state/${ID}` }, attention: null });
    expect(copilot.probe.traces(proc([]), home).conversation).toMatchObject({ kind: 'none' });
    expect(copilot.probe.traces(proc([hold(ID), hold(OTHER)]), home).conversation).toMatchObject({ kind: 'none', why: expect.stringMatching(/2 sessions/) });
    expect(copilot.probe.traces(proc([`/elsewhere/session-state/${ID}/inuse.1.hold`]), home).conversation).toMatchObject({ kind: 'none' });
    expect(copilot.probe.traces({ ...proc([]), open: { unreadable: 'EACCES' } }, home).conversation).toMatchObject({ kind: 'none' });
  });
});

describe("copilot's hook payloads (attention), as 1.0.102 sent them", () => {
  const MAIN = '66666666-2222-4333-8444-555555555555';
  const SUB = '1369a727-2bcf-4c18-b795-93991c0f3f7a';
  it.each([
    [{ hook_event_name: 'UserPromptSubmit', session_id: MAIN, cwd: CWD, prompt: 'x' }, 'working'],
    [{ hook_event_name: 'Stop', session_id: MAIN, cwd: CWD, stop_reason: 'end_turn', stop_hook_active: false }, 'waiting'],
    // Notification names the session `sessionId`.
    [{ sessionId: MAIN, cwd: CWD, message: 'Run command: touch x', title: 'Permission needed', hook_event_name: 'Notification', notification_type: 'permission_prompt' }, 'permission'],
  ])('%j → %s', (payload, attention) => {
    expect(copilotSignal(payload)).toMatchObject({ kind: 'signal', signal: { sessionId: MAIN, attention } });
  });

  it("skips a subagent's hooks, which name its agent_id as the session", () => {
    const sub = { hook_event_name: 'Stop', session_id: SUB, cwd: CWD, agent_id: SUB, agent_type: 'general-purpose', parent_agent_id: MAIN };
    expect(copilotSignal(sub)).toMatchObject({ kind: 'ignored', why: expect.stringMatching(/subagent/) });
    expect(copilotSignal({ hook_event_name: 'SubagentStop', session_id: MAIN, agent_id: SUB }).kind).toBe('ignored');
    expect(copilotSignal('Stop').kind).toBe('ignored');
  });
});
