// Who may talk to `fleetcom web`, decided before anything else runs. Pure: the request's facts
// in, a verdict out. The order matters and is the point:
//   1. the Host header names this server (a DNS-rebinding page's Host is its own name), checked
//      before auth and before a WebSocket upgrade completes; a missing Host is refused;
//   2. an Origin, when one is sent, is the page's own (the authority of that same Host);
//   3. the page's own files are public (they hold no data: the token arrives in the fragment);
//   4. everything else needs the token, as a Bearer header or the cookie it was exchanged for,
//      on loopback too (`tailscale serve` and cloudflared connect from 127.0.0.1); a token in a
//      query string is refused (it ends in logs, history and Referer);
//   5. a mutation or an upgrade that rides on the cookie must carry the page's Origin (a
//      browser always sends one; its absence means someone else's request: CSRF, CSWSH).
// Every refusal looks the same to the client (web/http-server.ts): one generic 403.
import { isIP } from 'node:net';

/** The names this server answers to: lowercase, IPv6 without brackets. */
export type AllowedHosts = ReadonlySet<string>;

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** 0.0.0.0 and :: listen everywhere; they name no host a browser would use. */
export function isWildcard(bind: string): boolean {
  return bind === '0.0.0.0' || bind === '::' || bind === '[::]';
}

export function isLoopback(bind: string): boolean {
  const host = bind.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The Host names allowed: the loopback names, the bind address when it is a concrete one, each
 * `--allowed-host`, and — when bound to every interface — this machine's own addresses (an IP
 * literal cannot be rebound: a browser that sends one navigated to that address).
 */
export function allowedHosts(bind: string, extra: readonly string[], interfaceAddresses: readonly string[]): AllowedHosts {
  const names = new Set(LOOPBACK_NAMES);
  const add = (name: string) => names.add(name.replace(/^\[(.*)\]$/, '$1').toLowerCase());
  if (!isWildcard(bind)) add(bind);
  else for (const address of interfaceAddresses) add(address);
  for (const host of extra) add(host);
  return names;
}

/** A hostname `--allowed-host` may name: a DNS name or an IP literal, nothing else. */
export function allowedHostProblem(host: string): string | null {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) return null;
  if (host.length > 253 || !/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(host)) {
    return 'expected a host name such as box.tailnet.ts.net or an IP address (no scheme, port or path)';
  }
  return null;
}

/** The hostname of a Host header (`name[:port]`, `[v6][:port]`), lowercase; null when malformed. */
export function hostnameOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const text = header.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  if (v6) return isIP(v6[1]!) === 6 ? v6[1]! : null;
  const named = /^([a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(text);
  if (!named || named[1] === '' || named[1]!.startsWith('.') || named[1]!.endsWith('.')) return null;
  return named[1]!;
}

/** The Origin is the page's own: http(s) and the very authority the request's Host names. */
export function sameOrigin(origin: string, host: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '' || (url.pathname !== '/' && url.pathname !== '') || url.search !== '') return false;
  return url.host === host.trim().toLowerCase() || `${url.host}:${defaultPort(url.protocol)}` === host.trim().toLowerCase();
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/** What the gate needs to know of a request. */
export interface RequestFacts {
  method: string;
  /** The path and query, as the request line gave it. */
  url: string;
  host: string | undefined;
  origin: string | undefined;
  /** A WebSocket upgrade. */
  upgrade: boolean;
  /** Which credential was presented and whether it was right (web/credentials.ts). */
  credential: 'none' | 'bearer' | 'cookie' | 'wrong';
  /** The peer is locked out for bad tokens (web/lockout.ts). */
  lockedOut: boolean;
  /** GET of one of the page's own files. */
  publicAsset: boolean;
}

/** Why a request was refused: for the server's own log only, never the client. */
export type Refusal = 'host' | 'origin' | 'query-token' | 'locked-out' | 'no-token' | 'bad-token' | 'no-origin';

export type Verdict = { ok: true; public: boolean } | { ok: false; why: Refusal };

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The gate, in the order the file's head gives. */
export function decide(facts: RequestFacts, allowed: AllowedHosts): Verdict {
  const hostname = hostnameOf(facts.host);
  if (hostname === null || !allowed.has(hostname)) return { ok: false, why: 'host' };
  if (facts.origin !== undefined && !sameOrigin(facts.origin, facts.host!)) return { ok: false, why: 'origin' };
  if (facts.publicAsset && SAFE_METHODS.has(facts.method) && !facts.upgrade) return { ok: true, public: true };
  if (queryCarriesToken(facts.url)) return { ok: false, why: 'query-token' };
  if (facts.lockedOut) return { ok: false, why: 'locked-out' };
  if (facts.credential === 'none') return { ok: false, why: 'no-token' };
  if (facts.credential === 'wrong') return { ok: false, why: 'bad-token' };
  const mutation = facts.upgrade || !SAFE_METHODS.has(facts.method);
  if (mutation && facts.credential === 'cookie' && facts.origin === undefined) return { ok: false, why: 'no-origin' };
  return { ok: true, public: false };
}

/** A query parameter that looks like a credential: refused, whatever its value. */
export function queryCarriesToken(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  const params = new URLSearchParams(url.slice(q + 1));
  return [...params.keys()].some((key) => /token|auth|key|secret|password/i.test(key));
}
