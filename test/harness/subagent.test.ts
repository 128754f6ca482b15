import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  captureId,
  conversationOf,
  rebindResume,
  resolveId,
  threadOfRollout,
  type ResolveOptions,
  type RunEvidence,
} from '../../src/harness/index.js';
import { C, CHILD, G, GRANDCHILD, HEAD_CWD, measured, NOTIFY, olderChild, P, rollout, SPAWNED, USER } from './codex-threads.js';
import { CID, ID, tempDir, write } from './fixtures.js';

// Contract 9.5 for codex: a subagent thread (its rollout beside the user's, its notify after
// the parent's) never becomes a task's conversation. The heads and payloads are the real
// codex 0.171.0's (test/fixtures/codex-subagents/README.md).

const CWD = HEAD_CWD;
const measuredHome = () => measured(tempDir());

function run(home: string, more: Partial<RunEvidence> = {}): RunEvidence {
  return { harness: 'codex', cwd: CWD, home, captureFile: null, exitHint: null, pinnedId: null, spawnedAt: SPAWNED, endedAt: null, ...more };
}

const now = SPAWNED + 60_000;
const save: ResolveOptions = { now, correlate: true, heldByOthers: new Set(), everHeld: new Set() };

describe('what a rollout\'s first record says the thread is', () => {
  it.each([
    ['the user thread codex 0.171.0 wrote', USER, { kind: 'user' }],
    ['its subagent (depth 1)', CHILD, { kind: 'child', source: 'subagent', parent: P }],
    ['that subagent\'s subagent (depth 2)', GRANDCHILD, { kind: 'child', source: 'subagent', parent: C }],
    ['the older form, with only source.subagent.thread_spawn', olderChild(C, P), { kind: 'child', source: 'subagent', parent: P }],
    ['a review thread with a parent', { payload: { id: C, thread_source: 'guardian_review', parent_thread_id: P } }, { kind: 'child', source: 'guardian_review', parent: P }],
    ['a subagent naming no valid parent', { payload: { id: C, thread_source: 'subagent', parent_thread_id: 'x' } }, { kind: 'child', source: 'subagent', parent: null }],
    ['a thread source that is not a string', { payload: { id: C, thread_source: { subagent: {} } } }, { kind: 'child', source: 'subagent', parent: null }],
    ['no thread source at all (codex before it wrote one)', { payload: { id: P, source: 'cli' } }, { kind: 'user' }],
    ['a null parent', { payload: { id: P, source: 'cli', thread_source: 'user', parent_thread_id: null } }, { kind: 'user' }],
  ])('%s', (_label, head, expected) => {
    expect(threadOfRollout(rollout(tempDir(), C, head))).toEqual(expected);
  });

  it.each([['not JSON', 'not json'], ['no payload', '{"type":"session_meta"}'], ['an empty file', '']])('is unknown for %s', (_label, head) => {
    expect(threadOfRollout(rollout(tempDir(), C, head)).kind).toBe('unknown');
  });

  it('reads a record that was not whole yet again next time', () => {
    const home = tempDir();
    const file = rollout(home, C, '{"type":"session_meta","payload":{"id"');
    expect(threadOfRollout(file).kind).toBe('unknown');
    rollout(home, C, CHILD);
    expect(threadOfRollout(file)).toMatchObject({ kind: 'child', parent: P });
  });

  it('reads a first record longer than 64 KiB (codex embeds its base instructions there)', () => {
    const big = { payload: { ...USER.payload, base_instructions: { text: 'x'.repeat(200_000) } } };
    expect(threadOfRollout(rollout(tempDir(), P, big))).toEqual({ kind: 'user' });
  });
});

describe('which conversation a codex id belongs to', () => {
  it('a user thread is its own; a subagent\'s belongs to the user thread at the root', () => {
    const home = measuredHome();
    const roots = { home, cwd: CWD };
    expect(conversationOf('codex', P, roots)).toEqual({ kind: 'own', id: P });
    expect(conversationOf('codex', C, roots)).toEqual({ kind: 'parent', id: P, child: C, note: `a subagent thread of ${P}` });
    expect(conversationOf('codex', G, roots)).toEqual({ kind: 'parent', id: P, child: G, note: `a subagent thread of ${P} (through ${C})` });
  });

  it('follows the older form too', () => {
    const home = tempDir();
    rollout(home, P, USER);
    rollout(home, C, olderChild(C, P));
    expect(conversationOf('codex', C, { home, cwd: CWD })).toMatchObject({ kind: 'parent', id: P });
  });

  it('an id without a rollout, or with one that says nothing, is its own (nothing says it is a child)', () => {
    const home = tempDir();
    rollout(home, C, 'not json');
    expect(conversationOf('codex', CID, { home, cwd: CWD })).toEqual({ kind: 'own', id: CID });
    expect(conversationOf('codex', C, { home, cwd: CWD })).toEqual({ kind: 'own', id: C });
  });

  it.each([
    ['its parent has no rollout', C, (home: string) => rollout(home, C, CHILD), `a subagent thread of ${P}, which has no rollout under`],
    ['its parent\'s first record is unreadable', C, (home: string) => { rollout(home, C, CHILD); rollout(home, P, '{'); }, `a subagent thread of ${P}, which is not a user thread`],
    ['it names no parent', C, (home: string) => rollout(home, C, { payload: { thread_source: 'subagent' } }), 'a subagent thread that names no parent'],
    ['its parents loop', C, (home: string) => { rollout(home, C, olderChild(C, G)); rollout(home, G, olderChild(G, C)); }, 'whose parents do not end in a user thread'],
    ['a depth-2 chain breaks in the middle', G, (home: string) => { rollout(home, P, USER); rollout(home, G, GRANDCHILD); }, `a subagent thread of ${C}, which has no rollout`],
  ])('is not resumable when %s', (_label, id, setup, note) => {
    const home = tempDir();
    setup(home);
    const of = conversationOf('codex', id, { home, cwd: CWD });
    expect(of.kind).toBe('none');
    expect(of.kind === 'none' ? of.note : '').toContain(note);
  });

  it('claude and grok ids are always their own', () => {
    expect(conversationOf('claude', ID, { home: tempDir(), cwd: CWD })).toEqual({ kind: 'own', id: ID });
    expect(conversationOf('grok', ID, { home: tempDir(), cwd: CWD })).toEqual({ kind: 'own', id: ID });
  });
});

describe('the codex capture never names a subagent thread', () => {
  it('takes the user thread from the measured notifier payloads (title, user, subagent, its subagent)', () => {
    const home = measuredHome();
    const captureFile = write(path.join(tempDir(), 'task-1-0.json'), `${NOTIFY.join('\n')}\n`);
    expect(NOTIFY.map((l) => (JSON.parse(l) as Record<string, string>)['thread-id']).slice(1)).toEqual([P, C, G]);
    expect(captureId(run(home, { captureFile }), now)).toBe(P);
    expect(resolveId(run(home, { captureFile }), save)).toEqual({ id: P, source: 'capture' });
  });

  it('skips a rollout whose first record does not show a user thread', () => {
    const home = tempDir();
    rollout(home, P, USER);
    rollout(home, C, olderChild(C, P));
    rollout(home, G, '{}');
    const captureFile = write(path.join(tempDir(), 'task-1-0.json'), [P, C, G].map((id) => JSON.stringify({ type: 'agent-turn-complete', 'thread-id': id })).join('\n'));
    expect(captureId(run(home, { captureFile }), now)).toBe(P);
  });

  it('finds nothing when only a subagent has a rollout', () => {
    const home = tempDir();
    rollout(home, C, CHILD);
    const captureFile = write(path.join(tempDir(), 'task-1-0.json'), JSON.stringify({ type: 'agent-turn-complete', 'thread-id': C }));
    expect(resolveId(run(home, { captureFile }), save)).toBeNull();
  });
});

describe('an id a channel or a command names that is a subagent thread', () => {
  it('resumes the root instead: an exit hint and a resumed id', () => {
    const home = measuredHome();
    expect(resolveId(run(home, { exitHint: G }), save)).toEqual({ id: P, source: 'exit-hint' });
    expect(resolveId(run(home, { pinnedId: C }), save)).toEqual({ id: P, source: 'pinned' });
  });

  it('is skipped when its root cannot be resumed: never the child', () => {
    const home = tempDir();
    rollout(home, C, CHILD);
    expect(resolveId(run(home, { pinnedId: C }), save)).toBeNull();
    expect(resolveId(run(home, { exitHint: C, pinnedId: C }), save)).toBeNull();
  });

  it('is never a correlation candidate, in either form', () => {
    for (const head of [CHILD, olderChild(C, P)]) {
      const home = tempDir();
      rollout(home, C, head);
      expect(resolveId(run(home), save)).toBeNull();
    }
    expect(resolveId(run(measuredHome()), save)).toEqual({ id: P, source: 'correlation' });
  });

  it.each([
    [`codex resume '${C}'`, { command: `codex resume '${P}'`, targetId: P, why: `codex resume '${C}' names a subagent thread of ${P}` }],
    [`/opt/bin/codex resume ${G}`, { command: `/opt/bin/codex resume '${P}'`, targetId: P }],
    [`codex resume '${P}'`, null],
    ['codex', null],
    [`claude --resume '${C}'`, null],
  ])('rebinds %s', (command, expected) => {
    const rebound = rebindResume(command, { home: measuredHome(), cwd: CWD });
    if (expected === null) expect(rebound).toBeNull();
    else expect(rebound).toMatchObject(expected);
  });

  it('rebinds to the bare agent when the root is gone', () => {
    const home = tempDir();
    rollout(home, C, CHILD);
    expect(rebindResume(`codex resume '${C}'`, { home, cwd: CWD })).toMatchObject({ command: 'codex', targetId: null });
  });
});
