import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkEntry, type DoctorContext, type EntryToCheck } from '../../src/doctor/checks.js';
import { unheldSpecs } from '../../src/fleet/rerun/ownership-guard.js';
import { warningLine } from '../../src/warnings.js';
import { claudeSlug } from '../../src/harness/index.js';
import { C, CHILD, measured, P, rollout } from '../harness/codex-threads.js';
import { fakeProc, tempRoot, type FakeProcess } from '../ownership/proc-tree.js';

const ID = 'c8c4a5cc-0b32-4ba0-a6b4-6ed08c218e0d';

let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const done of cleanup) done();
  cleanup = [];
});

/** A HOME with a claude on PATH, a project directory, a conversation with a message and a registry. */
function world(processes: FakeProcess[] = []) {
  const t = tempRoot();
  cleanup.push(t.done);
  const home = join(t.dir, 'home');
  const bin = join(t.dir, 'bin');
  const project = join(home, 'w');
  const claudeHome = join(home, '.claude');
  mkdirSync(bin, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(bin, 'claude'), '#!/bin/sh\n');
  chmodSync(join(bin, 'claude'), 0o755);
  const transcriptDir = join(claudeHome, 'projects', claudeSlug(project));
  mkdirSync(transcriptDir, { recursive: true });
  writeFileSync(join(transcriptDir, `${ID}.jsonl`), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' } })}\n`);
  mkdirSync(join(claudeHome, 'sessions'), { recursive: true });
  const entry = (command: string, over: Partial<EntryToCheck> = {}): EntryToCheck => ({
    dir: '~/w', cwd: project, command, name: null, env: { HOME: home, PATH: bin }, ...over,
  });
  const proc = fakeProc(t.dir, processes);
  const context = (over: Partial<DoctorContext> = {}): DoctorContext => ({
    fleet: [], tmuxSocket: null, fixHint: 'fleetcom doctor --fix work starts it fresh', fixCommand: 'fleetcom doctor --fix work', liveness: { proc }, ...over,
  });
  const register = (pid: number, procStart: string) =>
    writeFileSync(join(claudeHome, 'sessions', `${pid}.json`), JSON.stringify({ pid, sessionId: ID, procStart, cwd: project, status: 'idle' }));
  return { home, project, claudeHome, entry, context, register };
}

describe('checkEntry', () => {
  it('passes a resume entry whose conversation exists and is open nowhere, naming the registry it read', () => {
    const w = world();
    const report = checkEntry(w.entry(`claude --resume '${ID}'`), w.context());
    expect(report).toMatchObject({ verdict: 'ok', why: 'conversation found, not open elsewhere', unresumable: false });
    expect(report.checks.find((c) => c.check === 'ownership')?.source).toContain(join(w.claudeHome, 'sessions'));
  });

  it('fails a directory that is gone, and a program not on PATH', () => {
    const w = world();
    const report = checkEntry(w.entry('codex', { cwd: join(w.home, 'gone') }), w.context());
    expect(report.verdict).toBe('fail');
    expect(report.why).toBe(`the directory ${join(w.home, 'gone')} does not exist; codex is not on PATH`);
    expect(report.todo).toBe('restore the directory, or remove the entry; install it or fix PATH');
  });

  it('does not look up the program of a shell command', () => {
    const w = world();
    expect(checkEntry(w.entry('cd sub && make'), w.context())).toMatchObject({ verdict: 'ok' });
  });

  it('fails an unknown conversation as unresumable, with the fix to run', () => {
    const w = world();
    const other = '11111111-2222-4333-8444-555555555555';
    const report = checkEntry(w.entry(`claude --resume '${other}'`), w.context());
    expect(report).toMatchObject({ verdict: 'fail', unresumable: true, todo: 'fleetcom doctor --fix work starts it fresh' });
    expect(report.why).toContain(`no claude transcript ${join(w.claudeHome, 'projects', claudeSlug(w.project), `${other}.jsonl`)}`);
  });

  it('looks in the entry\'s own agent home', () => {
    const w = world();
    const report = checkEntry(w.entry(`claude --resume '${ID}'`, { env: { HOME: w.home, PATH: join(w.home, '..', 'bin'), CLAUDE_CONFIG_DIR: join(w.home, '.claude-work') } }), w.context());
    expect(report).toMatchObject({ verdict: 'fail', unresumable: true });
  });

  it('fails a conversation a live claude holds, saying where', () => {
    const w = world([{ pid: 4242, start: '777', tty: '/dev/pts/3' }]);
    w.register(4242, '777');
    const report = checkEntry(w.entry(`claude --resume '${ID}'`), w.context());
    expect(report).toMatchObject({ verdict: 'fail', why: 'open in pid 4242 on /dev/pts/3', unresumable: false });
  });

  it('names the fleet task when the holder runs in a fleet pane, and accepts a task\'s own conversation', () => {
    const w = world([{ pid: 4242, start: '777', env: { TMUX: '/s,1,0', TMUX_PANE: '%9' } }]);
    w.register(4242, '777');
    const fleet = [{ taskId: 3, windowId: '@5', paneId: '%9', conversationId: ID }];
    expect(checkEntry(w.entry(`claude --resume '${ID}'`), w.context({ fleet })).why).toBe('open in fleetcom task 3 (window @5)');
    const self = checkEntry(w.entry(`claude --resume '${ID}'`, { self: { taskId: 3, paneId: '%9' } }), w.context({ fleet }));
    expect(self).toMatchObject({ verdict: 'ok', why: 'conversation found, open in this task only' });
  });

  it('is unsure, not ok and not failed, when the registry cannot be read', () => {
    const w = world();
    writeFileSync(join(w.claudeHome, 'sessions', 'pid-4242.json'), JSON.stringify({ pid: 4242, session_id: ID }));
    const report = checkEntry(w.entry(`claude --resume '${ID}'`), w.context());
    expect(report.verdict).toBe('unsure');
    expect(report.why).toContain('older or unknown registry format');
  });
});

describe('checkEntry on a codex subagent thread (9.5)', () => {
  function codexEntry(w: ReturnType<typeof world>, codexHome: string) {
    const bin = join(w.home, '..', 'bin');
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\n');
    chmodSync(join(bin, 'codex'), 0o755);
    return w.entry(`codex resume '${C}'`, { env: { HOME: w.home, PATH: bin, CODEX_HOME: codexHome } });
  }

  it('says whose thread it is and that it resumes that one; --fix would write the root', () => {
    const w = world();
    const codexHome = measured(join(w.home, '.codex'));
    const report = checkEntry(codexEntry(w, codexHome), w.context());
    expect(report).toMatchObject({
      verdict: 'ok', unresumable: false, fix: `codex resume '${P}'`,
      why: `a subagent thread of ${P}; resumes ${P}, conversation found, not open elsewhere`,
      todo: `fleetcom doctor --fix work rewrites it to codex resume '${P}'`,
    });
    expect(report.checks.find((c) => c.check === 'conversation')?.detail).toContain(`a subagent thread of ${P}; resumes ${P}: found: ${codexHome}`);
  });

  it('fails it as unresumable when its root is gone (--fix starts codex fresh)', () => {
    const w = world();
    const codexHome = join(w.home, '.codex');
    rollout(codexHome, C, CHILD);
    const report = checkEntry(codexEntry(w, codexHome), w.context());
    expect(report).toMatchObject({ verdict: 'fail', unresumable: true, fix: 'codex', todo: 'fleetcom doctor --fix work starts it fresh' });
    expect(report.why).toContain(`a subagent thread of ${P}, which has no rollout under ${join(codexHome, 'sessions')}: not resumable`);
  });

  it('checks who holds the root, not the thread', () => {
    const w = world();
    const codexHome = measured(join(w.home, '.codex'));
    const fleet = [{ taskId: 2, windowId: '@2', paneId: '%2', conversationId: P }];
    expect(checkEntry(codexEntry(w, codexHome), w.context({ fleet }))).toMatchObject({ verdict: 'fail', why: 'open in fleetcom task 2 (window @2)' });
  });
});

describe('unheldSpecs (the load guard)', () => {
  it('starts what nobody holds, skips a live holder, and starts a conversation named twice once', () => {
    const w = world([{ pid: 4242, start: '777', tty: '/dev/pts/3' }]);
    const env = { HOME: w.home };
    const spec = (command: string) => ({ command, cwd: w.project, env });
    const free = unheldSpecs([spec(`claude --resume '${ID}'`), spec(`claude --resume '${ID}'`), spec('sleep 1')], [], w.context().liveness);
    expect(free.start.map((s) => s.command)).toEqual([`claude --resume '${ID}'`, 'sleep 1']);
    expect(free.skipped.map((s) => warningLine(s, { label: '' }))).toEqual([`${w.project}: claude --resume '${ID}': conversation ${ID} is named twice in this recipe; started once`]);

    w.register(4242, '777');
    const held = unheldSpecs([spec(`claude --resume '${ID}'`), spec('sleep 1')], [], w.context().liveness);
    expect(held.start.map((s) => s.command)).toEqual(['sleep 1']);
    expect(held.skipped.map((s) => warningLine(s, { label: '' }))).toEqual([`${w.project}: claude --resume '${ID}': conversation ${ID} is open in pid 4242 on /dev/pts/3; not started`]);
    expect(held.skipped[0]?.reason).toBe('its conversation is open in another process; not started');
  });
});

describe("doctor and gemini's session cleanup", () => {
  function geminiEntry(settings: unknown) {
    const t = tempRoot();
    cleanup.push(t.done);
    const home = join(t.dir, 'home');
    mkdirSync(join(home, '.gemini'), { recursive: true });
    if (settings !== undefined) writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
    const context: DoctorContext = { fleet: [], tmuxSocket: null, fixHint: '-', fixCommand: '-' };
    return checkEntry({ dir: '~', cwd: home, command: 'gemini', name: null, env: { HOME: home, PATH: '' } }, context);
  }

  it('warns, naming the setting, while cleanup is unset or on', () => {
    for (const settings of [undefined, {}, { general: { sessionRetention: { enabled: true } } }]) {
      const report = geminiEntry(settings);
      expect(report.checks.map((c) => c.check)).toContain('settings');
      expect(report.why).toContain('general.sessionRetention.enabled');
      expect(report.todo).toContain('change the setting');
    }
  });

  it('says nothing once cleanup is off', () => {
    const report = geminiEntry({ general: { sessionRetention: { enabled: false } } });
    expect(report.checks.map((c) => c.check)).not.toContain('settings');
  });
});
