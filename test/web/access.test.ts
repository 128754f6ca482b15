// The gate of fleetcom web as a table: Host × Origin × token × bind. Every refusal is the
// same to the client; the reason here is what the server's log names.
import { describe, expect, it } from 'vitest';
import { allowedHostProblem, allowedHosts, decide, hostnameOf, queryCarriesToken, sameOrigin, type RequestFacts } from '../../src/web/access.js';

const IFACES = ['127.0.0.1', '::1', '192.168.1.5', 'fe80::1'];
const binds = {
  loopback: allowedHosts('127.0.0.1', [], IFACES),
  everywhere: allowedHosts('0.0.0.0', [], IFACES),
  tailnet: allowedHosts('100.64.0.7', [], IFACES),
  proxied: allowedHosts('127.0.0.1', ['box.tailnet.ts.net'], IFACES),
};
type Bind = keyof typeof binds;

const api = (host: string | undefined, origin: string | undefined, credential: RequestFacts['credential'], more: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'GET', url: '/api/tasks', host, origin, upgrade: false, credential, lockedOut: false, publicAsset: false, ...more,
});

describe('the Host allow-list, checked before anything else', () => {
  const table: Array<[Bind, string | undefined, boolean]> = [
    ['loopback', '127.0.0.1:8470', true],
    ['loopback', 'localhost:8470', true],
    ['loopback', 'LOCALHOST:8470', true],
    ['loopback', '[::1]:8470', true],
    ['loopback', 'localhost', true],
    ['loopback', 'evil.example:8470', false], // DNS rebinding: the attacker's name resolving to 127.0.0.1
    ['loopback', 'localhost.evil.example:8470', false],
    ['loopback', '127.0.0.1.nip.io:8470', false],
    ['loopback', '192.168.1.5:8470', false], // bound to loopback: no other address is this server's
    ['loopback', undefined, false],
    ['loopback', '', false],
    ['loopback', 'localhost:8470 evil', false],
    ['loopback', 'localhost.:8470', false],
    ['loopback', '[::1', false],
    ['everywhere', '192.168.1.5:8470', true], // an address of this machine: cannot be rebound
    ['everywhere', '[fe80::1]:8470', true],
    ['everywhere', '10.9.9.9:8470', false], // not one of this machine's
    ['everywhere', 'evil.example:8470', false],
    ['everywhere', '0.0.0.0:8470', false],
    ['tailnet', '100.64.0.7:8470', true],
    ['tailnet', '192.168.1.5:8470', false],
    ['tailnet', 'box.tailnet.ts.net', false],
    ['proxied', 'box.tailnet.ts.net', true], // `tailscale serve` forwards its own name
    ['proxied', 'BOX.tailnet.ts.net:443', true],
    ['proxied', 'other.tailnet.ts.net', false],
  ];
  it.each(table)('bound %s, Host %j: %s', (bind, host, allowed) => {
    const verdict = decide(api(host, undefined, 'bearer'), binds[bind]);
    expect(verdict.ok).toBe(allowed);
    if (!allowed) expect(verdict).toEqual({ ok: false, why: 'host' });
  });

  it('checks Host before the token: a rebound page is refused even with the right token, and a right Host with no token is refused for the token', () => {
    expect(decide(api('evil.example:8470', undefined, 'bearer'), binds.loopback)).toEqual({ ok: false, why: 'host' });
    expect(decide(api('evil.example:8470', undefined, 'none', { publicAsset: true, url: '/' }), binds.loopback)).toEqual({ ok: false, why: 'host' });
    expect(decide(api('127.0.0.1:8470', undefined, 'none'), binds.loopback)).toEqual({ ok: false, why: 'no-token' });
  });
});

describe('Origin: the page\'s own or none', () => {
  const host = '127.0.0.1:8470';
  const table: Array<[string | undefined, RequestFacts['credential'], boolean, boolean, string]> = [
    // origin, credential, mutation/upgrade, ok, why
    [undefined, 'bearer', false, true, ''],
    [undefined, 'bearer', true, true, ''], // a script with the token: no browser sends a Bearer cross-site
    [undefined, 'cookie', false, true, ''],
    [undefined, 'cookie', true, false, 'no-origin'], // CSRF/CSWSH riding the cookie
    ['http://127.0.0.1:8470', 'cookie', true, true, ''],
    ['http://localhost:8470', 'cookie', true, false, 'origin'], // another origin, even if loopback
    ['http://127.0.0.1:9999', 'cookie', true, false, 'origin'], // another port is another site's page
    ['http://evil.example', 'bearer', false, false, 'origin'],
    ['null', 'cookie', true, false, 'origin'], // sandboxed frames, file: pages
    ['http://127.0.0.1:8470/x', 'cookie', true, false, 'origin'],
    ['ws://127.0.0.1:8470', 'cookie', true, false, 'origin'],
  ];
  it.each(table)('Origin %j with a %s credential (mutation %s): ok %s %s', (origin, credential, mutation, ok, why) => {
    const verdict = decide(api(host, origin, credential, mutation ? { method: 'POST' } : {}), binds.loopback);
    expect(verdict).toEqual(ok ? { ok: true, public: false } : { ok: false, why });
    const upgrade = decide(api(host, origin, credential, { upgrade: mutation }), binds.loopback);
    expect(upgrade.ok).toBe(ok);
  });

  it('takes the https origin of a page behind a proxy that forwards its Host', () => {
    expect(sameOrigin('https://box.tailnet.ts.net', 'box.tailnet.ts.net')).toBe(true);
    expect(sameOrigin('https://box.tailnet.ts.net', 'box.tailnet.ts.net:443')).toBe(true);
    expect(sameOrigin('http://user:pw@127.0.0.1:8470', '127.0.0.1:8470')).toBe(false);
  });
});

describe('the token', () => {
  const host = '127.0.0.1:8470';
  it.each([
    ['none', { ok: false, why: 'no-token' }],
    ['wrong', { ok: false, why: 'bad-token' }],
    ['bearer', { ok: true, public: false }],
    ['cookie', { ok: true, public: false }],
  ] as const)('a %s credential: %j, on loopback too', (credential, verdict) => {
    for (const bind of Object.values(binds)) expect(decide(api(host.startsWith('127') && bind === binds.tailnet ? '100.64.0.7:8470' : host, undefined, credential), bind)).toEqual(verdict);
  });

  it('refuses a token in the query string, whatever else the request has', () => {
    expect(decide(api(host, undefined, 'bearer', { url: '/api/tasks?token=abc' }), binds.loopback)).toEqual({ ok: false, why: 'query-token' });
    expect(decide(api(host, undefined, 'none', { url: '/api/tasks/1/terminal?access_token=abc', upgrade: true }), binds.loopback)).toEqual({ ok: false, why: 'query-token' });
    expect(queryCarriesToken('/api/tasks?turn=2')).toBe(false);
    expect(queryCarriesToken('/?Auth=1')).toBe(true);
  });

  it('refuses a locked-out peer even with the right token', () => {
    expect(decide(api(host, undefined, 'bearer', { lockedOut: true }), binds.loopback)).toEqual({ ok: false, why: 'locked-out' });
  });

  it('serves the page\'s own files without a token (the token arrives in their fragment), never by POST or upgrade', () => {
    expect(decide(api(host, undefined, 'none', { publicAsset: true, url: '/' }), binds.loopback)).toEqual({ ok: true, public: true });
    expect(decide(api(host, undefined, 'none', { publicAsset: true, url: '/', method: 'POST' }), binds.loopback).ok).toBe(false);
  });
});

describe('names', () => {
  it('reads Host headers strictly', () => {
    expect(hostnameOf('[::1]:80')).toBe('::1');
    expect(hostnameOf('[::zz]:80')).toBeNull();
    expect(hostnameOf('x_y')).toBeNull();
  });

  it('takes host names and addresses as --allowed-host, nothing with a scheme, port or path', () => {
    expect(allowedHostProblem('box.tailnet.ts.net')).toBeNull();
    expect(allowedHostProblem('100.64.0.7')).toBeNull();
    expect(allowedHostProblem('[fd7a::1]')).toBeNull();
    for (const bad of ['https://box', 'box:443', 'box/x', '', '*.ts.net', 'a b']) expect(allowedHostProblem(bad), bad).not.toBeNull();
  });
});
