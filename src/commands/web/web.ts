// `fleetcom web [--port N] [--bind ADDR] [--read-only] [--allowed-host H]… [--rotate-token]`:
// the fleet in a browser, as a process of its own. Prints the page's URL with the token in its
// fragment (a browser never sends a fragment to a server or a log) on stdout and, on a
// terminal, a QR code of it on stderr; serves until interrupted.
import { isIP } from 'node:net';
import { isatty } from 'node:tty';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { renderUnicodeCompact } from 'uqr';
import type { Deps } from '../../deps.js';
import { errnoCode, FleetError, UsageError } from '../../errors.js';
import { allowedHostProblem, allowedHosts, isLoopback, isWildcard } from '../../web/access.js';
import { loadAssets } from '../../web/assets.js';
import { startWebServer } from '../../web/http-server.js';
import { pollTransport } from '../../web/pane-poll.js';
import { supervisorTransport } from '../../web/pane-supervisor.js';
import { fleetRuntime } from '../../paths.js';
import { loadToken, tokenFile, TokenSource } from '../../web/token-store.js';
import { VERSION } from '../version.js';
import { fleetTmux } from './fleet-tmux.js';
import { webPush } from './web-push-setup.js';
import { webPort } from './web-port.js';

export interface WebOptions {
  port?: string;
  bind?: string;
  readOnly?: boolean;
  allowedHost?: string[];
  rotateToken?: boolean;
  pingMs?: string;
  pollMs?: string;
}

export const DEFAULT_PORT = 8470;
const PING_MS = 25_000;

/** The page's files: dist/web/, beside dist/chunks/ where this runs from (and dist/commands/web/ under tsc). */
function assetsDir(): string {
  const here = import.meta.url;
  return fileURLToPath(new URL(here.includes('/chunks/') ? '../web/' : '../../web/', here));
}

function portOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) throw new UsageError(`--port ${value}: expected a port number from 0 (any free port) to 65535`);
  return Number(value);
}

function bindOf(value: string | undefined): string {
  if (value === undefined) return '127.0.0.1';
  const bare = value.replace(/^\[(.*)\]$/, '$1');
  if (bare !== 'localhost' && isIP(bare) === 0) throw new UsageError(`--bind ${value}: expected an IP address of this machine (127.0.0.1, 0.0.0.0, a tailnet address…) or localhost`);
  return bare;
}

function msOf(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{2,7}$/.test(value)) throw new UsageError(`${flag} ${value}: expected milliseconds`);
  return Number(value);
}

/** How a browser names the address: IPv6 in brackets. */
function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address.replace(/%.*$/, '')));
}

/** What `fleetcom web` says at start when it serves plain HTTP beyond this machine; null on loopback. */
export function plainHttpWarning(bind: string): string | null {
  if (isLoopback(bind)) return null;
  return `serving plain HTTP on ${isWildcard(bind) ? 'every address of this machine' : bind}: anyone on that network can read the token and the terminals in transit; ` +
    'prefer --bind 127.0.0.1 behind `tailscale serve` (HTTPS inside your tailnet, docs/web.md)';
}

export async function runWeb(opts: WebOptions, deps: Deps): Promise<number> {
  const port = portOf(opts.port);
  const bind = bindOf(opts.bind);
  const extra = opts.allowedHost ?? [];
  for (const host of extra) {
    const problem = allowedHostProblem(host);
    if (problem !== null) throw new UsageError(`--allowed-host ${host}: ${problem}`);
  }
  const file = tokenFile(deps.env);
  const token = loadToken(file, opts.rotateToken === true);
  if (opts.rotateToken) deps.stderr.write(`fleetcom web: a new token is in ${file}; pages signed in with the old one are signed out\n`);
  const assets = loadAssets(assetsDir());
  if (!assets.has('/')) throw new FleetError(`the web page's files are missing from ${assetsDir()} (npm run build makes them)`);
  const tmux = fleetTmux(deps);
  const log = (line: string) => deps.stderr.write(`fleetcom web: ${line}\n`);
  const viewersRef: { watching: (task: number) => boolean } = { watching: () => false };
  const fleet = webPort(deps);
  // The supervisor's stream of a pane; tmux polled where the supervisor has none.
  const transport = supervisorTransport(() => fleetRuntime(deps.env).socket, pollTransport(tmux, msOf('--poll-ms', opts.pollMs, 40)), log);
  const push = webPush(deps, fleet, tmux, (task) => viewersRef.watching(task), log);
  let web;
  try {
    web = await startWebServer({
      port, bind, readOnly: opts.readOnly === true, allowed: allowedHosts(bind, extra, interfaceAddresses()),
      token: new TokenSource(file, token), fleet, transport, assets,
      pingMs: msOf('--ping-ms', opts.pingMs, PING_MS), push, log, now: deps.now, version: VERSION,
    });
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'EADDRINUSE') throw new FleetError(`port ${port} on ${bind} is in use (another fleetcom web?); choose another with --port`);
    if (code === 'EADDRNOTAVAIL') throw new FleetError(`--bind ${bind}: not an address of this machine`);
    throw error;
  }
  viewersRef.watching = (task) => web.viewers.watching(task);
  const shown = isWildcard(bind) ? '127.0.0.1' : bind;
  const urls = [`http://${urlHost(shown)}:${web.port}/#token=${token}`, ...extra.map((h) => `https://${urlHost(h)}/#token=${token}`)];
  deps.stdout.write(`${urls.join('\n')}\n`);
  const warning = plainHttpWarning(bind);
  if (warning !== null) log(warning);
  if (opts.readOnly) log('read-only: input, messages and resumes are refused by this server');
  // A person at a terminal gets the QR code (stderr, fd 2: deps' writer says nothing of a tty).
  if (isatty(2)) deps.stderr.write(`\n${renderUnicodeCompact(urls.at(-1)!, { border: 2 })}\n\n`);
  log(`serving the page and the API on ${urlHost(bind)}:${web.port}; (Ctrl-C stops)`);
  push?.start();
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.once('SIGHUP', stop);
  });
  push?.stop();
  await web.close();
  return 0;
}
