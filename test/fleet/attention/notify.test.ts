// The notify command: the user's string run by /bin/sh, what happened only in its environment.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttentionChange } from '../../../src/fleet/attention/attention.js';
import { attentionText, notifier, notifyEnv } from '../../../src/fleet/attention/notify.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { waitFor } from '../../helpers/wait-for.js';

const SID = 'b76c5d24-78e9-4c78-b673-5cc322b36d7c';
const task = { id: 7, name: null, command: 'claude --model opus', windowId: '@3', paneId: '%9' } as unknown as Task;
const change = (message: string | null, notify = true): AttentionChange => ({
  task, from: 'working', notify, state: { attention: 'permission', since: 1, message, conversation: SID },
});

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fleetcom-notify-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('the notify command', () => {
  it('gets the task, label, state and message as environment variables', () => {
    expect(notifyEnv({ HOME: '/h' }, change(null))).toEqual({
      HOME: '/h', FLEETCOM_TASK_ID: '7', FLEETCOM_TASK_LABEL: 'claude --model opus', FLEETCOM_ATTENTION: 'permission',
      FLEETCOM_MESSAGE: 'claude --model opus needs your permission', FLEETCOM_WINDOW_ID: '@3', FLEETCOM_PANE_ID: '%9',
    });
    expect(attentionText(change('Claude needs your permission'))).toBe('Claude needs your permission');
  });

  it('runs without a shell string built from what the agent said', async () => {
    const out = join(tmp, 'out');
    const hostile = `$(touch ${join(tmp, 'pwned')}) \`touch ${join(tmp, 'pwned')}\` '"; touch ${join(tmp, 'pwned')}`;
    const logs: string[] = [];
    notifier({ bell: false, command: `printf '%s' "$FLEETCOM_MESSAGE" > '${out}'`, env: { PATH: '/usr/bin:/bin' } }, {
      paneTty: async () => '/dev/null', log: (l) => logs.push(l),
    })(change(hostile));
    await waitFor(() => existsSync(out) && readFileSync(out, 'utf8') === hostile, { what: 'the message written verbatim' });
    expect(existsSync(join(tmp, 'pwned'))).toBe(false);
  });

  it('runs nothing for a change not worth telling, and logs a failing command', async () => {
    const logs: string[] = [];
    const notify = notifier({ bell: false, command: `touch '${join(tmp, 'ran')}'; exit 3`, env: { PATH: '/usr/bin:/bin' } }, {
      paneTty: async () => '/dev/null', log: (l) => logs.push(l),
    });
    notify(change(null, false));
    notify(change(null));
    await waitFor(() => logs.includes('notify command ended with status 3'), { what: 'the failure logged' });
    expect(existsSync(join(tmp, 'ran'))).toBe(true);
  });

  it('rings no bell on a tty tmux reports that is not a /dev/pts device', async () => {
    const logs: string[] = [];
    notifier({ bell: true, command: null, env: {} }, { paneTty: async () => '/etc/passwd', log: (l) => logs.push(l) })(change(null));
    await waitFor(() => logs.length > 0, { what: 'a log line' });
    expect(logs[0]).toMatch(/reports tty "\/etc\/passwd", not a \/dev\/pts device/);
  });
});
