// The alert rules on a clock of the test's: the delay, the cooldown per task and kind, the
// watched window, several tasks in one alert.
import { describe, expect, it } from 'vitest';
import { AlertRules, type AlertSubject } from '../../../src/fleet/attention/alert-rules.js';
import { composeAlert, webhookBody, type AlertItem } from '../../../src/fleet/attention/alert-message.js';
import { ntfyRequest as ntfyOf } from '../../../src/fleet/attention/alert-targets.js';

const rules = (over: Partial<{ delayMs: number; cooldownMs: number; whenWatching: boolean }> = {}) =>
  new AlertRules<AlertSubject>({ delayMs: 5_000, cooldownMs: 60_000, whenWatching: false, ...over });
const s = (key: string, attention: AlertSubject['attention'] = 'waiting'): AlertSubject => ({ key, attention });
const nobody = () => false;

describe('AlertRules', () => {
  it('alerts only once the delay has passed, and not for a task that went back to work within it', () => {
    const r = rules();
    r.changed('/1', s('/1'), true, 1_000);
    r.changed('/2', s('/2'), true, 1_000);
    expect(r.nextDue()).toBe(6_000);
    expect(r.take(5_999, nobody).send).toEqual([]);
    r.changed('/2', null, false, 3_000); // answered within the delay
    expect(r.take(6_000, nobody).send).toEqual([s('/1')]);
    expect(r.nextDue()).toBeNull();
    expect(r.take(60_000, nobody).send).toEqual([]);
  });

  it('a state nobody needs telling (a fresh prompt, a replay) drops what was pending', () => {
    const r = rules();
    r.changed('/1', s('/1'), true, 0);
    r.changed('/1', s('/1'), false, 1_000);
    expect(r.take(10_000, nobody).send).toEqual([]);
  });

  it('keeps one alert per task and kind within the cooldown; another kind alerts again', () => {
    const r = rules({ delayMs: 0 });
    r.changed('/1', s('/1'), true, 0);
    expect(r.take(0, nobody).send).toHaveLength(1);
    r.changed('/1', null, false, 1_000);
    r.changed('/1', s('/1'), true, 2_000); // the next turn ends within the minute
    expect(r.take(2_000, nobody)).toEqual({ send: [], skipped: [{ subject: s('/1'), why: 'cooldown' }] });
    r.changed('/1', s('/1', 'permission'), true, 3_000);
    expect(r.take(3_000, nobody).send).toEqual([s('/1', 'permission')]);
    r.changed('/1', s('/1', 'question'), true, 4_000);
    expect(r.take(4_000, nobody).send).toEqual([s('/1', 'question')]);
    // Each kind keeps its own: the turn ending after the question is still within the first's cooldown.
    r.changed('/1', s('/1'), true, 5_000);
    expect(r.take(5_000, nobody).skipped).toEqual([{ subject: s('/1'), why: 'cooldown' }]);
    r.changed('/1', s('/1'), true, 61_000);
    expect(r.take(61_000, nobody).send).toEqual([s('/1')]);
  });

  it('waiting then permission within the delay is one wait: it falls due when the first did', () => {
    const r = rules();
    r.changed('/1', s('/1'), true, 0);
    r.changed('/1', s('/1', 'permission'), true, 4_000);
    expect(r.take(5_000, nobody).send).toEqual([s('/1', 'permission')]);
  });

  it('says nothing for a watched task unless whenWatching, and drops it rather than waiting', () => {
    const r = rules();
    r.changed('/1', s('/1'), true, 0);
    r.changed('/2', s('/2'), true, 0);
    expect(r.take(5_000, (x) => x.key === '/1')).toEqual({ send: [s('/2')], skipped: [{ subject: s('/1'), why: 'watched' }] });
    expect(r.nextDue()).toBeNull();
    const w = rules({ whenWatching: true });
    w.changed('/1', s('/1'), true, 0);
    expect(w.take(5_000, () => true).send).toEqual([s('/1')]);
  });

  it('sends every task due at once together, permission first; forget drops a task and its cooldown', () => {
    const r = rules({ delayMs: 0 });
    r.changed('/1', s('/1'), true, 0);
    r.changed('h/4', s('h/4', 'permission'), true, 0);
    expect(r.take(0, nobody).send.map((x) => x.key)).toEqual(['h/4', '/1']);
    r.forget('/1');
    r.changed('/1', s('/1'), true, 1);
    expect(r.take(1, nobody).send).toEqual([s('/1')]);
  });
});

const item = (over: Partial<AlertItem>): AlertItem => ({
  key: '/1', attention: 'waiting', taskId: 1, label: 'claude', message: 'claude is waiting for you', host: 'box', remote: false,
  directory: '/p', conversation: null, windowId: '@1', paneId: '%1', ...over,
});

describe('what an alert says', () => {
  it('one task: its message; several: one line naming them all, with the host of a remote one', () => {
    expect(composeAlert([item({ message: 'Deploy to prod now?' })])).toMatchObject({ title: 'fleetcom: claude', text: 'Deploy to prod now?' });
    const both = composeAlert([item({ key: 'gpu/3', taskId: 3, attention: 'permission', label: 'codex', host: 'gpu', remote: true }), item({})]);
    expect(both.text).toBe('2 tasks need you: codex on gpu (permission), claude');
    expect(webhookBody(both)).toMatchObject({ task: 3, label: 'codex', attention: 'permission', host: 'gpu', directory: '/p', conversation: null, tasks: [{ task: 3 }, { task: 1 }] });
  });

  it('ntfy: JSON to the server root with the topic, a permission urgent, the token as Bearer', () => {
    const [url, headers, body] = ntfyOf('https://ntfy.example/base/my%20topic?x=1', 'tk', composeAlert([item({ attention: 'permission' })]));
    expect(url).toBe('https://ntfy.example/base');
    expect(headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer tk' });
    expect(JSON.parse(body)).toEqual({ topic: 'my topic', title: 'fleetcom: claude', message: 'claude is waiting for you', priority: 4, tags: ['warning'] });
    expect(ntfyOf('http://n/t', undefined, composeAlert([item({})]))[1]).toEqual({ 'content-type': 'application/json' });
  });
});
