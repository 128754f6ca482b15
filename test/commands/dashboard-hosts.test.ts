// What the dashboard's host feed tells the alerts after each poll: every task with what it was
// before; a task gone from its host as no longer needing you; a host's tasks only its own.
import { describe, expect, it } from 'vitest';
import { tellAttention } from '../../src/commands/hosts/dashboard-hosts.js';
import type { LsRecord } from '../../src/control/protocol.js';
import type { RemoteAttention } from '../../src/fleet/attention/alerts.js';

const rec = (id: number, attention: LsRecord['attention'], over: Partial<LsRecord> = {}) =>
  ({ id, name: null, command: 'codex', cwd: '/w', state: 'running', attention, conversationId: null, ...over }) as LsRecord;

describe('tellAttention', () => {
  it('tells each task with its previous attention, an exited one as none, a vanished one once as none', () => {
    const told = new Map<string, RemoteAttention>();
    const calls: Array<[string, string | null, string | null | undefined]> = [];
    const tell = (t: RemoteAttention, before: RemoteAttention['attention'] | undefined) => calls.push([`${t.host}/${t.taskId}`, t.attention, before]);
    tellAttention('gpu', [rec(1, 'working'), rec(2, 'waiting', { name: 'api' })], told, tell);
    tellAttention('db', [rec(1, 'permission')], told, tell);
    tellAttention('gpu', [rec(1, 'waiting'), rec(3, 'waiting', { state: 'exited' })], told, tell);
    expect(calls).toEqual([
      ['gpu/1', 'working', undefined], ['gpu/2', 'waiting', undefined],
      ['db/1', 'permission', undefined],
      ['gpu/1', 'waiting', 'working'], ['gpu/3', null, undefined], ['gpu/2', null, 'waiting'],
    ]);
    expect(told.has('gpu/2')).toBe(false);
    expect(told.get('db/1')?.label).toBe('codex');
  });
});
