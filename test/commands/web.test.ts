// fleetcom web's start: what it says about plain HTTP beyond loopback, and the flags it refuses.
import { describe, expect, it } from 'vitest';
import { plainHttpWarning, runWeb } from '../../src/commands/web/web.js';

const deps = { env: {}, cwd: '/', stdout: { write: () => true }, stderr: { write: () => true }, now: () => 0 };

describe('fleetcom web', () => {
  it.each(['127.0.0.1', '127.0.0.2', 'localhost', '::1'])('serves %s quietly: it is this machine only', (bind) => {
    expect(plainHttpWarning(bind)).toBeNull();
  });

  it.each([['0.0.0.0', 'every address of this machine'], ['::', 'every address of this machine'], ['100.64.0.7', '100.64.0.7'], ['192.168.1.5', '192.168.1.5']])('says so when it serves plain HTTP on %s', (bind, where) => {
    expect(plainHttpWarning(bind)).toMatch(new RegExp(`^serving plain HTTP on ${where.replace(/\./g, '\\.')}: anyone on that network can read the token.*tailscale serve`));
  });

  it.each([
    [{ port: '70000' }, /--port 70000: expected a port number/],
    [{ port: 'x' }, /--port x/],
    [{ bind: 'example.com' }, /--bind example.com: expected an IP address/],
    [{ allowedHost: ['https://box.ts.net'] }, /--allowed-host https:\/\/box.ts.net: expected a host name/],
    [{ allowedHost: ['box.ts.net:443'] }, /--allowed-host box.ts.net:443/],
  ])('refuses %j before it listens or writes a token (exit 2)', async (opts, message) => {
    await expect(runWeb(opts, deps)).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(message) });
  });
});
