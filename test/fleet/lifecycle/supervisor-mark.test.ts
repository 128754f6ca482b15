import { describe, expect, it } from 'vitest';
import { liveSupervisor, markCommand, markOption, parseMark } from '../../../src/fleet/lifecycle/supervisor-mark.js';
import type { ProcessIdentity } from '../../../src/fleet/lifecycle/process-identity.js';

const SOCKET = '/run/user/1000/fleetcom/default.sock';

describe("the tmux server's mark of a socket's supervisor", () => {
  it('is one option per socket path, holding pid, start time and the socket', () => {
    expect(markOption(SOCKET)).toMatch(/^@fleetcom-supervisor-[0-9a-f]{16}$/);
    expect(markOption('/tmp/fleetcom-1000/default.sock')).not.toBe(markOption(SOCKET));
    const command = markCommand(SOCKET, { pid: 4242, start: '987654', command: 'node cli.js up' });
    expect(command).toEqual(['set-option', '-s', markOption(SOCKET), `4242 987654 ${SOCKET}`]);
    expect(parseMark(command[3]!, SOCKET)).toEqual({ pid: 4242, start: '987654', socket: SOCKET });
  });

  it.each([
    ['unset', null],
    ['empty', ''],
    ['another socket (a hash collision, or a copied value)', '4242 987654 /tmp/other/default.sock'],
    ['no pid', 'x 987654 ' + SOCKET],
    ['pid 0', `0 987654 ${SOCKET}`],
    ['a start time that is no number', `4242 soon ${SOCKET}`],
    ['a socket path with a newline after it', `4242 987654 ${SOCKET}\nforged`],
  ])('names no one when %s', (_, text) => {
    expect(parseMark(text, SOCKET)).toBeNull();
  });

  it('names no start when the supervisor had no /proc', () => {
    expect(parseMark(`4242 - ${SOCKET}`, SOCKET)).toEqual({ pid: 4242, start: null, socket: SOCKET });
  });

  const live = (start: string | null) => (pid: number): ProcessIdentity => ({ pid, start, command: 'node cli.js up' });
  it.each([
    ['alive with the recorded start', '100', live('100'), true],
    ['a reused pid (another start)', '100', live('200'), false],
    ['gone', '100', () => null, false],
    ['alive, and the mark recorded no start', null, live('200'), true],
  ] as const)('is live when its process is %s', (_, start, identify, owned) => {
    expect(liveSupervisor({ pid: 4242, start, socket: SOCKET }, identify) !== null).toBe(owned);
  });

  it('is never this process (a supervisor does not refuse itself)', () => {
    expect(liveSupervisor({ pid: process.pid, start: null, socket: SOCKET }, live(null))).toBeNull();
  });
});
