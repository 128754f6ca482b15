import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  captureId,
  claudeProjectDirs,
  claudeSlug,
  claudeTranscriptHasUser,
  type RunEvidence,
} from '../../src/harness/index.js';
import { BOOKKEEPING, CID, ID, OTHER, tempDir, USER_LINE, v7, write } from './fixtures.js';

// Channel 2 (contract section 6) with the 8.2 transcript check and the 8.3 rollout rule.

const CWD = '/work/my_dir.v2';

function evidence(overrides: Partial<RunEvidence> & Pick<RunEvidence, 'harness' | 'home'>): RunEvidence {
  return {
    cwd: CWD,
    captureFile: null,
    exitHint: null,
    pinnedId: null,
    spawnedAt: Date.UTC(2026, 5, 15, 12),
    endedAt: null,
    ...overrides,
  };
}

function transcript(home: string, id: string, text: string, cwd = CWD): string {
  return write(path.join(home, 'projects', claudeSlug(cwd), `${id}.jsonl`), text);
}

describe('the claude project slug (8.1)', () => {
  it.each([
    ['/a/b.c', '-a-b-c'],
    ['/home/u/.config/x', '-home-u--config-x'],
    ['/x/my_dir.v2', '-x-my-dir-v2'],
    ['/x/with space/ünï', '-x-with-space--n-'],
    ['/x/🚀', '-x---'],
    ['/Caps/123', '-Caps-123'],
  ])('turns %j into %j', (cwd, slug) => expect(claudeSlug(cwd)).toBe(slug));

  it('looks for every directory carrying the 200-character prefix of a longer slug', () => {
    const home = tempDir();
    const cwd = `/${'long-dir/'.repeat(30)}end`;
    const slug = claudeSlug(cwd);
    const prefix = slug.slice(0, 200);
    for (const name of [`${prefix}-abc123`, `${prefix}-zz9`, `${prefix}x-no`, 'unrelated']) {
      fs.mkdirSync(path.join(home, 'projects', name), { recursive: true });
    }
    expect(claudeProjectDirs(home, cwd).map((dir) => path.basename(dir))).toEqual([`${prefix}-abc123`, `${prefix}-zz9`]);
    write(path.join(home, 'projects', `${prefix}-zz9`, `${ID}.jsonl`), USER_LINE);
    expect(claudeTranscriptHasUser(home, cwd, ID)).toBe(true);
  });
});

describe('the claude transcript check (8.2)', () => {
  it.each([
    ['a user record', `${BOOKKEEPING}\n${USER_LINE}\n`, true],
    ['a user record without a final newline', USER_LINE, true],
    ['only bookkeeping records', `${BOOKKEEPING}\n`, false],
    ['an empty file', '', false],
    ['a user word that is not the type', `${JSON.stringify({ type: 'assistant', text: '"type":"user"' })}\n`, false],
    ['a torn user record', '{"type":"user","mess', false],
    ['a non-JSON line then a user record', `garbage\n[1,2]\n${USER_LINE}\n`, true],
    ['a CRLF user record', `${USER_LINE}\r\n`, true],
  ])('with %s says %s', (_label, text, expected) => {
    const home = tempDir();
    transcript(home, ID, text);
    expect(claudeTranscriptHasUser(home, CWD, ID)).toBe(expected);
  });

  it('finds a user record after long lines that cross read chunks', () => {
    const home = tempDir();
    const long = JSON.stringify({ type: 'summary', text: 'é'.repeat(100_000) });
    transcript(home, ID, `${long}\n${long}\n${USER_LINE}\n`);
    expect(claudeTranscriptHasUser(home, CWD, ID)).toBe(true);
  });

  it('says no for a missing transcript, a transcript in another project, or an invalid id', () => {
    const home = tempDir();
    transcript(home, ID, USER_LINE, '/elsewhere');
    expect(claudeTranscriptHasUser(home, CWD, ID)).toBe(false);
    expect(claudeTranscriptHasUser(home, CWD, OTHER)).toBe(false);
    expect(claudeTranscriptHasUser(home, CWD, '../x')).toBe(false);
  });
});

describe('the claude capture payload', () => {
  const hook = (sessionId: unknown): string =>
    JSON.stringify({ session_id: sessionId, transcript_path: '/t', cwd: '/w', hook_event_name: 'SessionStart', source: 'startup' });

  it.each([
    ['the SessionStart payload', hook(ID), ID],
    ['the payload with a trailing newline', `${hook(ID)}\n`, ID],
    ['not JSON', 'session_id: ' + ID, null],
    ['a torn payload', hook(ID).slice(0, 30), null],
    ['a missing session_id', JSON.stringify({ sessionId: ID }), null],
    ['a numeric session_id', hook(42), null],
    ['an uppercase id', hook(ID.toUpperCase()), null],
    ['an injection', hook(`${ID}'; rm -rf ~; '`), null],
    ['an array', JSON.stringify([{ session_id: ID }]), null],
    ['an empty file', '', null],
  ])('reads %s as %s', (_label, text, expected) => {
    const home = tempDir();
    transcript(home, ID, USER_LINE);
    const file = write(path.join(tempDir(), 'task-1-1.json'), text);
    expect(captureId(evidence({ harness: 'claude', home, captureFile: file }), Date.now())).toBe(expected);
  });

  it('returns nothing when the captured conversation has no user record yet', () => {
    const home = tempDir();
    transcript(home, ID, BOOKKEEPING);
    const file = write(path.join(tempDir(), 'task-1-1.json'), hook(ID));
    expect(captureId(evidence({ harness: 'claude', home, captureFile: file }), Date.now())).toBeNull();
  });

  it('returns nothing, without throwing, for a missing, unset or directory capture file', () => {
    const home = tempDir();
    transcript(home, ID, USER_LINE);
    const dir = tempDir();
    for (const captureFile of [null, path.join(dir, 'missing.json'), dir]) {
      expect(captureId(evidence({ harness: 'claude', home, captureFile }), Date.now())).toBeNull();
    }
  });

  it('has no capture channel for grok', () => {
    const file = write(path.join(tempDir(), 'task-1-1.json'), hook(ID));
    expect(captureId(evidence({ harness: 'grok', home: tempDir(), captureFile: file }), Date.now())).toBeNull();
  });
});

describe('the codex capture: the last payload whose rollout exists (8.3)', () => {
  const turn = (threadId: unknown, type = 'agent-turn-complete'): string =>
    JSON.stringify({ type, 'thread-id': threadId, 'turn-id': 't', cwd: CWD, 'input-messages': ['hi'] });
  const spawnedAt = Date.UTC(2026, 0, 1, 0, 0, 10);
  const A = v7(spawnedAt + 5_000, 1);
  const TITLE = v7(spawnedAt + 6_000, 2);
  const B = v7(spawnedAt + 7_000, 3);

  function rollout(home: string, folder: string, id: string): void {
    write(path.join(home, 'sessions', folder, `rollout-2026-01-01T00-00-15-${id}.jsonl`), '{}\n');
  }

  function read(lines: string[], setup: (home: string) => void, more: Partial<RunEvidence> = {}, now = spawnedAt + 60_000) {
    const home = tempDir();
    setup(home);
    const file = write(path.join(tempDir(), 'task-1-1.json'), lines.join('\n'));
    return captureId(evidence({ harness: 'codex', home, captureFile: file, spawnedAt, ...more }), now);
  }

  it.each([
    ['the title-generation payload arriving last', [turn(A), turn(TITLE)], [A], A],
    ['the title-generation payload arriving first', [turn(TITLE), turn(A)], [A], A],
    ['a later thread with a rollout', [turn(A), turn(TITLE), turn(B)], [A, B], B],
    ['a later thread without one', [turn(B), turn(A), turn(TITLE)], [A, B], A],
    ['no rollout at all', [turn(A), turn(TITLE)], [], null],
    ['a torn last line', [turn(A), turn(B).slice(0, 20)], [A, B], A],
    ['another payload type', [turn(A), turn(B, 'approval-requested')], [A, B], A],
    ['an uppercase thread id', [turn(A), turn(B.toUpperCase())], [A, B], A],
    ['a numeric thread id', [turn(A), turn(7)], [A], A],
    ['blank and junk lines', ['', 'junk', turn(A), ''], [A], A],
  ] as const)('with %s', (_label, lines, withRollout, expected) => {
    expect(read([...lines], (home) => withRollout.forEach((id) => rollout(home, '2026/01/01', id)))).toBe(expected);
  });

  it.each([
    ['spawn day', '2026/01/01', A],
    ['spawn day − 1, across the year', '2025/12/31', A],
    ['spawn day − 2, across the year', '2025/12/30', A],
    ['spawn day − 3', '2025/12/29', null],
    ['end day + 1', '2026/01/02', A],
    ['end day + 2', '2026/01/03', null],
  ])('finds a rollout in the %s folder: %s', (_label, folder, expected) => {
    expect(read([turn(A)], (home) => rollout(home, folder, A), { endedAt: spawnedAt + 60_000 })).toBe(expected);
  });

  it('probes up to the day after now while the run is still going, across a month', () => {
    const lines = [turn(A)];
    const now = Date.UTC(2026, 1, 28, 23, 0);
    expect(read(lines, (home) => rollout(home, '2026/03/01', A), {}, now)).toBe(A);
    expect(read(lines, (home) => rollout(home, '2026/03/02', A), {}, now)).toBeNull();
    expect(read(lines, (home) => rollout(home, '2026/01/15', A), {}, now)).toBe(A);
  });

  it('ignores rollouts in another codex home and files that only look like rollouts', () => {
    expect(read([turn(A)], () => undefined)).toBeNull();
    expect(
      read([turn(A)], (home) => {
        write(path.join(home, 'sessions', '2026/01/01', `rollout-${A}.jsonl`), '{}\n');
        write(path.join(home, 'sessions', '2026/01/01', `session-x-${A}.jsonl`), '{}\n');
        fs.mkdirSync(path.join(home, 'sessions', '2026/01/01', `rollout-x-${A}.jsonl`));
      }),
    ).toBeNull();
  });

  it('returns nothing for a capture file with no valid payload', () => {
    expect(read(['{}', turn('not-an-id'), turn(CID.slice(1))], (home) => rollout(home, '2026/01/01', CID))).toBeNull();
  });
});
