import { describe, expect, it } from 'vitest';
import { failureOf } from '../../src/remote/outcome.js';

const ctx = { deadlineMs: 5000, remoteProgram: 'fleetcom' };
const run = (code: number | null, stderr: string, timedOut = false) => ({ code, stdout: '', stderr, timedOut });

describe('what a finished ssh call means', () => {
  it.each([
    ['ssh could not connect', run(255, 'ssh: connect to host 10.0.0.9 port 22: Connection refused\r\n'), 'unreachable', 'ssh: connect to host 10.0.0.9 port 22: Connection refused'],
    ['ssh refused the key', run(255, 'root@h: Permission denied (publickey).\r\n'), 'unreachable', 'ssh: root@h: Permission denied (publickey).'],
    ['no answer in time', run(null, '', true), 'no-answer', 'no answer within 5 s'],
    ['fleetcom is missing there', run(127, 'bash: line 1: fleetcom: command not found\n'), 'no-fleetcom', /^fleetcom was not found there \(bash: line 1: fleetcom: command not found\); install fleetcom on h/],
    ['an older fleetcom', run(2, "fleetcom: unknown option '--remote-protocol'\ntry 'fleetcom --help'\n"), 'older', /older than this one/],
    ['another protocol', run(2, "fleetcom: fleetcom 0.3.0 here speaks remote protocol 2, the caller's fleetcom speaks 1: install the same fleetcom version on both machines\n"), 'protocol', /^fleetcom 0.3.0 here speaks remote protocol 2/],
  ] as const)('%s', (_label, result, kind, reason) => {
    const failure = failureOf('h', result, ctx);
    expect(failure?.kind).toBe(kind);
    if (typeof reason === 'string') expect(failure?.reason).toBe(reason);
    else expect(failure?.reason).toMatch(reason);
  });

  it.each([
    ['success', run(0, '')],
    ['no fleet there', run(3, 'fleetcom: no fleet is running (start one with: fleetcom up)\n')],
    ['a usage error of the command', run(2, "fleetcom: unknown option '--jsno'\n")],
    ['a failed command', run(1, 'fleetcom: no task 9\n')],
  ] as const)("is the remote fleetcom's own answer on %s", (_label, result) => {
    expect(failureOf('h', result, ctx)).toBeNull();
  });
});
