import { describe, expect, it } from 'vitest';
import { replyChecks, type LsRecord } from '../../src/control/replies.js';
import { ShapeError } from '../../src/control/shape.js';

const record: LsRecord = {
  id: 1, run: 0, cwd: '/w', command: 'claude', name: null, group: 'ui', tagged: false, state: 'idle', exitStatus: null,
  killed: false, harness: 'claude', conversationId: null, idSource: null, resumeCommand: 'claude', parkedJob: null,
  windowId: '@1', paneId: '%1', spawnedAt: '2026-11-30T18:00:00.000Z', lastOutputAt: '2026-11-30T18:00:00.000Z',
  attention: 'waiting', attentionSince: '2026-11-30T18:00:01.000Z',
};

describe('reply checks', () => {
  it('pass a well-formed reply through, typed', () => {
    expect(replyChecks.ls([record])).toEqual([record]);
    expect(replyChecks.run({ id: 4 })).toEqual({ id: 4 });
    expect(replyChecks.kill(null)).toBeNull();
    expect(replyChecks.save([{ cwd: '/w', cmd: 'codex', name: null, group: null, env: { CODEX_HOME: '/h' } }])).toEqual([
      { cwd: '/w', cmd: 'codex', name: null, group: null, env: { CODEX_HOME: '/h' } },
    ]);
  });

  it('pass the fields of adopted, parked and signalling tasks', () => {
    const adopted = { ...record, command: null, resumeCommand: null, attention: null, attentionSince: null };
    const parked = { ...record, parkedJob: { id: '0a1b2c3d', sessionId: null, alive: true } };
    expect(replyChecks.ls([adopted, parked])).toEqual([adopted, parked]);
    expect(replyChecks.next({ id: 2 })).toEqual({ id: 2 });
    expect(replyChecks.next(null)).toBeNull();
  });

  it('accept a load reply without skipped (older supervisors)', () => {
    expect(replyChecks.load({ ids: [1], errors: [] })).toEqual({ ids: [1], errors: [] });
  });

  it('refuse a reply of another shape, naming the field', () => {
    expect(() => replyChecks.run({ id: '4' })).toThrow(new ShapeError('id: expected an integer, got string'));
    expect(() => replyChecks.ls([{ ...record, state: 'asleep' }])).toThrow(/\[0\]\.state: expected running \| idle \| exited/);
    expect(() => replyChecks.ls([{ ...record, harness: 'aider' }])).toThrow(/\[0\]\.harness/);
    expect(() => replyChecks.status(null)).toThrow(/expected an object/);
    expect(() => replyChecks.kill({ surprise: true })).toThrow(/expected no result/);
    expect(() => replyChecks.ls([{ ...record, attention: 'asleep' }])).toThrow(/\[0\]\.attention: expected working \| waiting \| permission/);
    expect(() => replyChecks.ls([{ ...record, parkedJob: { id: 7 } }])).toThrow(/\[0\]\.parkedJob\.id: expected a string/);
    expect(() => replyChecks.next({ id: 'x' })).toThrow(/id: expected an integer/);
  });

  it('refuse agent homes other than the three variables, or relative ones', () => {
    const entry = { cwd: '/w', cmd: 'codex', name: null, group: null };
    expect(() => replyChecks.save([{ ...entry, env: { LD_PRELOAD: '/x.so' } }])).toThrow(/env key/);
    expect(() => replyChecks.save([{ ...entry, env: { CODEX_HOME: 'rel' } }])).toThrow(/absolute path/);
  });
});
