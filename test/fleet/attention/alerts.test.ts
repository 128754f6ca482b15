// Alerts wired: a host's task through the same rules and targets, named with its host; a local
// task on a watched window kept quiet; a task that stopped needing you before its alert fell due.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttentionChange } from '../../../src/fleet/attention/attention.js';
import { Alerts, type AlertsDeps } from '../../../src/fleet/attention/alerts.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import type { AttentionState } from '../../../src/harness/index.js';
import { waitFor } from '../../helpers/wait-for.js';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fleetcom-alerts-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

let worlds = 0;
function world(over: Partial<AlertsDeps> = {}) {
  const out = join(tmp, `out-${++worlds}`);
  const logs: string[] = [];
  const alerts = new Alerts(
    { delaySeconds: 0, cooldownSeconds: 60, whenWatching: false, targets: [
      { type: 'command', argv: ['/bin/sh', '-c', 'printf "%s|%s|%s|%s\\n" "$FLEETCOM_TASK_LABEL" "$FLEETCOM_HOST" "$FLEETCOM_MESSAGE" "$FLEETCOM_WINDOW_ID" >> "$0"', out] },
    ] },
    [],
    { env: { PATH: '/usr/bin:/bin' }, platform: 'linux', now: Date.now, log: (l) => logs.push(l), clients: async () => [], clientTtys: async () => [], attentionNow: () => null, ...over },
  );
  return { alerts, out, logs };
}

const task = { id: 3, run: 1, name: null, command: 'claude', cwd: '/p', windowId: '@3', paneId: '%3', tracedId: null, pinnedId: null, targetId: null } as unknown as Task;
const waiting: AttentionState = { attention: 'waiting', since: 1, message: null, conversation: null };
const change = (notify = true): AttentionChange => ({ task, from: 'working', notify, state: waiting, transitions: [] });

describe('Alerts', () => {
  it('alerts a host\'s task that came to need you, naming the host, once; a task seen again changes nothing', async () => {
    const { alerts, out } = world();
    const codex = { host: 'gpu', taskId: 4, label: 'codex', attention: 'waiting' as const, message: null, directory: '/w', conversation: null };
    alerts.remote({ ...codex, attention: 'working' }, undefined);
    alerts.remote(codex, 'working');
    await waitFor(() => lines(out).length === 1, { what: 'the host task alerted' });
    expect(lines(out)).toEqual(['codex|gpu|codex is waiting for you|']);
    alerts.remote(codex, 'waiting');
    alerts.remote({ ...codex, taskId: 5, label: 'claude', attention: 'permission' }, undefined);
    await waitFor(() => lines(out).length === 2, { what: 'the second host task' });
    expect(lines(out)[1]).toBe('claude|gpu|claude needs your permission|');
    alerts.stop();
  });

  it('keeps quiet for a watched window, and for a task that no longer needs you when the alert falls due', async () => {
    const watched = world({ clients: async () => [{ windowId: '@3', activityAt: Date.now() }], attentionNow: () => waiting });
    watched.alerts.local(change());
    await waitFor(() => watched.logs.some((l) => l.includes('its window is being watched')), { what: 'the watched log line' });
    expect(lines(watched.out)).toEqual([]);

    const stale = world({ clients: async () => [{ windowId: '@3', activityAt: Date.now() - 10 * 60_000 }], attentionNow: () => waiting });
    stale.alerts.local(change());
    await waitFor(() => lines(stale.out).length === 1, { what: 'an alert: the client had no input for minutes' });
    expect(lines(stale.out)[0]).toMatch(/^claude\|.+\|claude is waiting for you\|@3$/);

    const gone = world({ attentionNow: () => ({ ...waiting, attention: 'working' }) });
    gone.alerts.local(change());
    gone.alerts.local({ ...change(), task: { ...task, id: 9 } as Task, state: waiting });
    // A host's task after them: once it is alerted, the two before were dropped, not sent.
    gone.alerts.remote({ host: 'gpu', taskId: 1, label: 'later', attention: 'waiting', message: null, directory: '/w', conversation: null }, undefined);
    await waitFor(() => lines(gone.out).length > 0, { what: 'the later alert' });
    expect(lines(gone.out)).toEqual(['later|gpu|later is waiting for you|']);
    for (const w of [watched, stale, gone]) w.alerts.stop();
  });
});
