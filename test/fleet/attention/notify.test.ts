// The bell, and the command targets (notifyCommand by /bin/sh, a command's argv): what happened
// reaches them only in their environment, never spliced into a shell string.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttentionChange } from '../../../src/fleet/attention/attention.js';
import { composeAlert, type AlertItem } from '../../../src/fleet/attention/alert-message.js';
import { alertEnv, AlertTargets } from '../../../src/fleet/attention/alert-targets.js';
import { attentionText, notifier } from '../../../src/fleet/attention/notify.js';
import type { Task } from '../../../src/fleet/supervisor/task.js';
import { waitFor } from '../../helpers/wait-for.js';

const SID = 'b76c5d24-78e9-4c78-b673-5cc322b36d7c';
const task = { id: 7, name: null, command: 'claude --model opus', windowId: '@3', paneId: '%9' } as unknown as Task;
const change = (message: string | null, notify = true): AttentionChange => ({
  task, from: 'working', notify, state: { attention: 'permission', since: 1, message, conversation: SID }, transitions: [],
});
const item = (message: string): AlertItem => ({
  key: '/7', attention: 'permission', taskId: 7, label: 'claude --model opus', message, host: 'box', remote: false,
  directory: '/p', conversation: SID, windowId: '@3', paneId: '%9',
});

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'fleetcom-notify-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('the command targets', () => {
  it('get the task, label, state, message, host, directory and conversation as environment variables', () => {
    expect(alertEnv({ HOME: '/h' }, composeAlert([item('claude --model opus needs your permission')]))).toEqual({
      HOME: '/h', FLEETCOM_TASK_ID: '7', FLEETCOM_TASK_LABEL: 'claude --model opus', FLEETCOM_ATTENTION: 'permission',
      FLEETCOM_MESSAGE: 'claude --model opus needs your permission', FLEETCOM_WINDOW_ID: '@3', FLEETCOM_PANE_ID: '%9',
      FLEETCOM_HOST: 'box', FLEETCOM_DIRECTORY: '/p', FLEETCOM_CONVERSATION_ID: SID, FLEETCOM_TASK_COUNT: '1',
    });
    expect(attentionText(change('Claude needs your permission'))).toBe('Claude needs your permission');
    expect(attentionText(change(null))).toBe('claude --model opus needs your permission');
  });

  it('notifyCommand runs without a shell string built from what the agent said; argv has no shell at all', async () => {
    const out = join(tmp, 'out');
    const argvOut = join(tmp, 'argv-out');
    const hostile = `$(touch ${join(tmp, 'pwned')}) \`touch ${join(tmp, 'pwned')}\` '"; touch ${join(tmp, 'pwned')}`;
    const targets = new AlertTargets([
      { type: 'shell', command: `printf '%s' "$FLEETCOM_MESSAGE" > '${out}'` },
      { type: 'command', argv: ['/bin/sh', '-c', 'printf "%s" "$FLEETCOM_MESSAGE" > "$1"', 'sh', argvOut] },
    ], { env: { PATH: '/usr/bin:/bin' }, platform: 'linux', clientTtys: async () => [], log: () => {} });
    await targets.send(composeAlert([item(hostile)]));
    expect(readFileSync(out, 'utf8')).toBe(hostile);
    expect(readFileSync(argvOut, 'utf8')).toBe(hostile);
    expect(existsSync(join(tmp, 'pwned'))).toBe(false);
  });

  it('a failing target is logged once until it works again, a hung one stopped at its deadline, and neither holds the others', async () => {
    const logs: string[] = [];
    const flag = join(tmp, 'fail');
    const ok = join(tmp, 'ok');
    const targets = new AlertTargets([
      { type: 'shell', command: `[ -e '${flag}' ] && exit 3; exit 0` },
      { type: 'command', argv: ['sleep', '30'], timeoutSeconds: 0.3 },
      { type: 'shell', command: `echo x >> '${ok}'` },
    ], { env: { PATH: '/usr/bin:/bin' }, platform: 'linux', clientTtys: async () => [], log: (l) => logs.push(l) });
    const alert = composeAlert([item('m')]);
    await import('node:fs').then((fs) => fs.writeFileSync(flag, ''));
    const started = Date.now();
    await targets.send(alert);
    await targets.send(alert);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(readFileSync(ok, 'utf8')).toBe('x\nx\n');
    expect(logs.filter((l) => l.includes('notifyCommand failed: ended with status 3'))).toHaveLength(1);
    expect(logs.filter((l) => l.includes('command sleep failed: still running after 0.3 s'))).toHaveLength(1);
    rmSync(flag);
    await targets.send(alert);
    expect(logs).toContain('alert target notifyCommand works again');
  });

  it('desktop: a missing notify-send is said, not thrown', async () => {
    const logs: string[] = [];
    await new AlertTargets([{ type: 'desktop' }], { env: { PATH: tmp }, platform: 'linux', clientTtys: async () => [], log: (l) => logs.push(l) })
      .send(composeAlert([item('m')]));
    expect(logs[0]).toMatch(/desktop failed: notify-send is not on PATH/);
  });
});

describe('the bell', () => {
  it('rings no bell on a tty tmux reports that is not a /dev/pts device', async () => {
    const logs: string[] = [];
    notifier({ bell: true }, { paneTty: async () => '/etc/passwd', log: (l) => logs.push(l) })(change(null));
    await waitFor(() => logs.length > 0, { what: 'a log line' });
    expect(logs[0]).toMatch(/reports tty "\/etc\/passwd", not a \/dev\/pts device/);
  });
});
