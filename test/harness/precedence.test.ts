import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  claudeSlug,
  detect,
  grokEncodeCwd,
  resolveHome,
  resolveId,
  resumeCommand,
  rewriteCommand,
  type AgentDetection,
  type ResolveOptions,
  type RunEvidence,
} from '../../src/harness/index.js';
import { BOOKKEEPING, CID, ID, OTHER, tempDir, USER_LINE, v7, write } from './fixtures.js';

// Contract section 7 with the 8.2 skip-and-continue amendment; the canonical command.

const CWD = '/w';
const P = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const none: ReadonlySet<string> = new Set();
const save: ResolveOptions = { now: Date.now(), correlate: true, heldByOthers: none, everHeld: none };
const rerun: ResolveOptions = { ...save, correlate: false };

function claudeRun(home: string, more: Partial<RunEvidence> = {}): RunEvidence {
  return { harness: 'claude', cwd: CWD, home, captureFile: null, exitHint: null, pinnedId: P, spawnedAt: Date.now(), endedAt: null, ...more };
}

function transcript(home: string, id: string, text = USER_LINE): void {
  write(path.join(home, 'projects', claudeSlug(CWD), `${id}.jsonl`), text);
}

function hookFile(id: string): string {
  return write(path.join(tempDir(), 'task-1-1.json'), JSON.stringify({ session_id: id, hook_event_name: 'SessionStart' }));
}

describe('id precedence for claude', () => {
  it('follows the contract scenario: pin, then the hook’s id, then the exit hint', () => {
    const home = tempDir();
    for (const id of [P, OTHER, ID]) transcript(home, id);
    const captureFile = write(path.join(tempDir(), 'task-1-1.json'), '');
    expect(resolveId(claudeRun(home, { captureFile }), save)).toEqual({ id: P, source: 'pinned' });
    write(captureFile, JSON.stringify({ session_id: OTHER, hook_event_name: 'SessionStart', source: 'clear' }));
    expect(resolveId(claudeRun(home, { captureFile }), save)).toEqual({ id: OTHER, source: 'capture' });
    const hint = ID;
    expect(resolveId(claudeRun(home, { captureFile, exitHint: hint }), save)).toEqual({ id: ID, source: 'exit-hint' });
    expect(rewriteCommand('claude', ID)).toBe(`claude --resume '${ID}'`);
  });

  it.each([
    ['a hint without a transcript falls to the capture', [OTHER, P], { exitHint: ID, capture: OTHER }, { id: OTHER, source: 'capture' }],
    ['a hint and a capture without transcripts never fall back to a pin the pane has left', [P], { exitHint: ID, capture: OTHER }, null],
    ['a /clear with nothing typed since leaves the command bare, not back in the pin', [P, ID], { exitHint: null, capture: OTHER }, null],
    ['a capture of the pin itself names the pin', [P], { exitHint: ID, capture: P }, { id: P, source: 'capture' }],
    ['an empty conversation (bookkeeping only) is skipped', [P], { exitHint: ID, capture: null, empty: ID }, { id: P, source: 'pinned' }],
    ['a pin that never talked leaves the command bare', [], { exitHint: null, capture: null, empty: P }, null],
    ['an invalid hint is skipped', [OTHER], { exitHint: ID.toUpperCase(), capture: OTHER }, { id: OTHER, source: 'capture' }],
  ] as const)('skips and continues (8.2): %s', (_label, talked, run, expected) => {
    const home = tempDir();
    for (const id of talked) transcript(home, id);
    if ('empty' in run) transcript(home, run.empty, BOOKKEEPING);
    const captureFile = run.capture === null ? null : hookFile(run.capture);
    expect(resolveId(claudeRun(home, { exitHint: run.exitHint, captureFile }), save)).toEqual(expected);
  });

  it('keeps the id a lost capture file named (swept with its namespace), never falling back to the pin it left', () => {
    const home = tempDir();
    for (const id of [P, OTHER]) transcript(home, id);
    const captureFile = path.join(tempDir(), 'gone', 'task-1-0.json');
    expect(resolveId(claudeRun(home, { captureFile, capturedBefore: OTHER }), save)).toEqual({ id: OTHER, source: 'capture' });
    // The recorded capture names a conversation with no message yet: none, not the older pin.
    const fresh = 'cccccccc-bbbb-4ccc-8ddd-eeeeeeeeeeee';
    expect(resolveId(claudeRun(home, { captureFile, capturedBefore: fresh }), save)).toBeNull();
    // A capture file still there wins over the record (a /clear with nothing typed: none).
    expect(resolveId(claudeRun(home, { captureFile: hookFile(fresh), capturedBefore: OTHER }), save)).toBeNull();
    // A record that is not an id is input, and ignored: the pin stands as before.
    expect(resolveId(claudeRun(home, { captureFile, capturedBefore: 'not-an-id' }), save)).toEqual({ id: P, source: 'pinned' });
  });

  it.each([
    ['an id that fails the check (upper-cased)', JSON.stringify({ session_id: ID.toUpperCase(), hook_event_name: 'SessionStart' })],
    ['a valid id in a payload that is no SessionStart', JSON.stringify({ session_id: 'dddddddd-2222-4333-8444-555555555555' })],
    ['a payload that is not JSON', 'not json at all'],
    ['a payload without a session_id', JSON.stringify({ hook_event_name: 'SessionStart' })],
    ['an empty file', ''],
  ])('keeps the id the capture named last when the file now holds %s, never falling back to the pin it left', (_label, text) => {
    const home = tempDir();
    for (const id of [P, OTHER]) transcript(home, id);
    const captureFile = write(path.join(tempDir(), 'task-1-0.json'), text);
    expect(resolveId(claudeRun(home, { captureFile, capturedBefore: OTHER }), save)).toEqual({ id: OTHER, source: 'capture' });
    expect(resolveId(claudeRun(home, { captureFile, capturedBefore: OTHER, pinnedId: null }), rerun)).toEqual({ id: OTHER, source: 'capture' });
    // With nothing recorded yet, such a file names nothing and the pin stands.
    expect(resolveId(claudeRun(home, { captureFile }), save)).toEqual({ id: P, source: 'pinned' });
  });

  it('does not correlate a pinned claude, even when one transcript would match', () => {
    const home = tempDir();
    transcript(home, ID);
    expect(resolveId(claudeRun(home), save)).toBeNull();
  });
});

describe('id precedence for codex and grok', () => {
  const spawnedAt = Date.now() - 60_000;
  const A = v7(spawnedAt + 1_000, 1);
  const B = v7(spawnedAt + 2_000, 2);

  function codexHome(...ids: string[]): string {
    const home = tempDir();
    const day = new Date(spawnedAt).toISOString().slice(0, 10).replaceAll('-', '/');
    for (const id of ids) {
      const meta = JSON.stringify({ type: 'session_meta', payload: { id, cwd: CWD, thread_source: 'user' } });
      write(path.join(home, 'sessions', day, `rollout-x-${id}.jsonl`), `${meta}\n`);
    }
    return home;
  }

  function codexRun(home: string, more: Partial<RunEvidence> = {}): RunEvidence {
    return { harness: 'codex', cwd: CWD, home, captureFile: null, exitHint: null, pinnedId: null, spawnedAt, endedAt: null, ...more };
  }

  const notify = (id: string): string =>
    write(path.join(tempDir(), 'task-2-1.json'), `${JSON.stringify({ type: 'agent-turn-complete', 'thread-id': id })}\n`);

  it.each([
    ['the exit hint first', { exitHint: CID, captureFile: 'A', pinnedId: B }, { id: CID, source: 'exit-hint' }],
    ['the capture before the target', { captureFile: 'A', pinnedId: B }, { id: A, source: 'capture' }],
    ['the target before correlation', { pinnedId: B }, { id: B, source: 'pinned' }],
    ['correlation last', {}, { id: A, source: 'correlation' }],
  ] as const)('takes %s', (_label, run, expected) => {
    const home = codexHome(A);
    const captureFile = 'captureFile' in run ? notify(A) : null;
    const evidence = codexRun(home, { ...run, captureFile });
    expect(resolveId(evidence, save)).toEqual(expected);
  });

  it('never correlates on rerun', () => {
    expect(resolveId(codexRun(codexHome(A)), rerun)).toBeNull();
  });

  it('correlates to nothing when two rollouts match', () => {
    expect(resolveId(codexRun(codexHome(A, B)), save)).toBeNull();
  });

  it('grok: the hint, then the pin, each only once its session directory exists', () => {
    const home = tempDir();
    const grok = (more: Partial<RunEvidence>): RunEvidence => ({ ...codexRun(home), harness: 'grok', ...more });
    for (const id of [ID, P]) mkdirSync(path.join(home, 'sessions', grokEncodeCwd(CWD), id), { recursive: true });
    expect(resolveId(grok({ exitHint: ID, pinnedId: P }), rerun)).toEqual({ id: ID, source: 'exit-hint' });
    expect(resolveId(grok({ pinnedId: P }), rerun)).toEqual({ id: P, source: 'pinned' });
    expect(resolveId(grok({ pinnedId: `${P}'` }), rerun)).toBeNull();
  });

  // Found by the chaos run: a grok that never talked was saved as `grok --resume <pin>`, which
  // fails (grok makes the directory at the first message); its task must come back fresh.
  it('grok: a pin whose session directory was never made is no conversation', () => {
    const grok: RunEvidence = { ...codexRun(tempDir()), harness: 'grok', pinnedId: P };
    expect(resolveId(grok, save)).toBeNull();
  });
});

describe('id precedence for an adopted run fleetcom did not start', () => {
  const adopted = (home: string, more: Partial<RunEvidence> = {}) => claudeRun(home, { pinnedId: null, handStarted: true, ...more });

  it('takes the id its process\'s traces named, after the exit hint', () => {
    const home = tempDir();
    transcript(home, ID);
    transcript(home, OTHER);
    expect(resolveId(adopted(home, { tracedId: ID }), rerun)).toEqual({ id: ID, source: 'process' });
    expect(resolveId(adopted(home, { tracedId: ID, exitHint: OTHER }), rerun)).toEqual({ id: OTHER, source: 'exit-hint' });
  });

  it('skips a traced id whose conversation holds no message yet (8.2)', () => {
    const home = tempDir();
    transcript(home, ID, BOOKKEEPING);
    expect(resolveId(adopted(home, { tracedId: ID }), save)).toBeNull();
  });

  it('never correlates a store entry to it: its start time says nothing of which is its own', () => {
    const home = tempDir();
    transcript(home, ID);
    const now = { ...save, now: Date.now() + 1_000 };
    expect(resolveId(adopted(home, { spawnedAt: Date.now() }), now)).toBeNull();
    expect(resolveId(adopted(home, { spawnedAt: Date.now(), handStarted: false }), now)).toEqual({ id: ID, source: 'correlation' });
  });
});

describe('the canonical resume command', () => {
  const agent = (command: string): AgentDetection => {
    const detection = detect(command);
    if (detection.form === 'opaque') throw new Error(command);
    return detection;
  };

  it.each([
    ['claude', ID, `claude --resume '${ID}'`],
    ['codex', CID, `codex resume '${CID}'`],
    ['grok', ID, `grok --resume '${ID}'`],
    ['/usr/local/bin/claude', ID, `/usr/local/bin/claude --resume '${ID}'`],
    ['  ~/bin/codex\t', CID, `~/bin/codex resume '${CID}'`],
    [`claude --resume ${OTHER}`, ID, `claude --resume '${ID}'`],
  ])('builds the resume form of %j for %s', (command, id, expected) => {
    expect(resumeCommand(agent(command), id)).toBe(expected);
    expect(rewriteCommand(command, id)).toBe(expected);
  });

  it.each([ID.toUpperCase(), `${ID}'; rm -rf ~; '`, '', ID.slice(1), `${ID}\n`])('refuses to build one for %j', (id) => {
    expect(() => resumeCommand(agent('claude'), id)).toThrow(/invalid id/);
    expect(rewriteCommand('claude', id)).toBe('claude');
  });

  it.each([
    ["claude 'fix the tests'", ID],
    ['claude; ls', ID],
    ['FOO=bar claude', ID],
    ['vim notes.txt', ID],
    ['', ID],
    ['claude', null],
    [`codex resume ${CID}`, null],
  ])('leaves %j unchanged (id %s)', (command, id) => {
    expect(rewriteCommand(command, id)).toBe(command);
  });
});

describe('harness homes from a given environment', () => {
  it.each([
    ['claude', { HOME: '/home/u' }, '/home/u/.claude'],
    ['claude', { HOME: '/home/u', CLAUDE_CONFIG_DIR: '/cfg' }, '/cfg'],
    ['claude', { HOME: '/home/u', CLAUDE_CONFIG_DIR: '' }, '/home/u/.claude'],
    ['codex', { HOME: '/home/u/' }, '/home/u/.codex'],
    ['codex', { HOME: '/home/u', CODEX_HOME: '/c h' }, '/c h'],
    ['grok', { HOME: '/home/u' }, '/home/u/.grok'],
    ['grok', { HOME: '/home/u', GROK_HOME: '/g', CODEX_HOME: '/c' }, '/g'],
  ] as const)('resolves the %s home of %j as %s', (harness, env, home) => {
    expect(resolveHome(harness, env)).toBe(home);
  });

  it('refuses to guess without HOME', () => {
    expect(() => resolveHome('claude', {})).toThrow(/HOME/);
  });
});
