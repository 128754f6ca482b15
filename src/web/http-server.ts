// The server of `fleetcom web`: node:http and `ws` (noServer), every request and every upgrade
// through the same gate (web/access.ts) before anything else — a refused upgrade never reaches
// the WebSocket handshake. Then the rate limits, then the API (web/api.ts) or the terminal
// socket (web/terminal-socket.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { decide, type AllowedHosts, type Refusal } from './access.js';
import { handleApi } from './api.js';
import type { ApiContext } from './context.js';
import type { Asset } from './assets.js';
import { credentialOf } from './credentials.js';
import type { FleetPort } from './fleet-port.js';
import { REFUSED_BODY, refusedUpgrade, securityHeaders } from './headers.js';
import { Lockout, type LockoutSettings } from './lockout.js';
import type { PaneTransport } from './pane-transport.js';
import type { PushService } from './push/push-service.js';
import { Buckets } from './rate-limit.js';
import { acceptTerminal, terminalTask } from './terminal-socket.js';
import { Viewers } from './viewers.js';
import type { TokenSource } from './token-store.js';

export interface WebServerOptions {
  port: number;
  bind: string;
  readOnly: boolean;
  allowed: AllowedHosts;
  token: TokenSource;
  fleet: FleetPort;
  transport: PaneTransport;
  assets: Map<string, Asset>;
  /** How often each socket is pinged; one missed pong and it is closed. */
  pingMs: number;
  push: PushService | null;
  log: (line: string) => void;
  now: () => number;
  version: string;
  /** The bad-token rules (web/lockout.ts's LOCKOUT unless a test says otherwise). */
  lockout?: LockoutSettings;
}

export interface WebServer {
  server: Server;
  /** The port it listens on (the one given, or the one the system chose for 0). */
  port: number;
  viewers: Viewers;
  close(): Promise<void>;
}

/** The largest terminal input frame a socket takes; anything larger closes it (1009). */
export const MAX_FRAME = 64 * 1024;
/** How long open responses (an event stream) may take to end when the server stops. */
const CLOSE_GRACE_MS = 1_000;
/** API requests a peer may make: a second's worth and a burst. */
const REQUEST_RATE = 30;
const REQUEST_BURST = 120;

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const lockout = new Lockout(opts.lockout);
  const requests = new Buckets(REQUEST_RATE, REQUEST_BURST);
  const viewers = new Viewers();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME, perMessageDeflate: false, clientTracking: false });
  const logged = new Set<string>();
  let port = opts.port;

  /** The gate's verdict for a request; a bad token is recorded and answered late. */
  const gate = async (req: IncomingMessage, upgrade: boolean): Promise<{ ok: true; public: boolean } | { ok: false; status: 403 | 429 }> => {
    const peer = req.socket.remoteAddress ?? '?';
    const now = opts.now();
    const path = (req.url ?? '/').split('?')[0]!;
    const verdict = decide({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      host: req.headers.host,
      origin: req.headers.origin,
      upgrade,
      credential: credentialOf(req.headers, port, opts.token.current()),
      lockedOut: lockout.lockedOut(peer, now),
      publicAsset: !upgrade && opts.assets.has(path),
    }, opts.allowed);
    if (!verdict.ok) {
      note(peer, verdict.why);
      if (verdict.why === 'bad-token') {
        const wait = lockout.failed(peer, now);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      return { ok: false, status: 403 };
    }
    if (!verdict.public && !requests.take(peer, 1, now)) return { ok: false, status: 429 };
    return verdict;
  };

  /** One log line per peer and reason, so a prober cannot fill the log. */
  const note = (peer: string, why: Refusal) => {
    const key = `${peer} ${why}`;
    if (logged.has(key) || logged.size > 1000) return;
    logged.add(key);
    opts.log(`refused a request from ${peer} (${why}); later ones of the kind are not logged`);
  };

  const context: ApiContext = { fleet: opts.fleet, readOnly: opts.readOnly, now: opts.now, push: opts.push, viewers, port: () => port, token: () => opts.token.current(), transport: opts.transport, version: opts.version };

  // A request without Host reaches the gate (and its one 403) rather than Node's own 400.
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    securityHeaders(res);
    void gate(req, false).then(async (verdict) => {
      if (!verdict.ok) return refuse(res, verdict.status);
      const path = (req.url ?? '/').split('?')[0]!;
      const asset = verdict.public ? opts.assets.get(path) : undefined;
      if (asset !== undefined) return serveAsset(req, res, asset);
      await handleApi(req, res, context);
    }).catch((error: unknown) => {
      opts.log(`request ${req.method} ${req.url}: ${(error as Error).message}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(res.writableEnded ? undefined : '{"error":"internal error"}\n');
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.maxHeadersCount = 64;

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    void gate(req, true).then(async (verdict) => {
      if (!verdict.ok) {
        socket.end(refusedUpgrade(verdict.status));
        return;
      }
      const task = await terminalTask(req.url ?? '', context).catch(() => null);
      if (task === null) {
        socket.end(refusedUpgrade(503));
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => acceptTerminal(ws, task, context, opts.pingMs, opts.log));
    }).catch(() => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.bind, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address !== null && typeof address === 'object') port = address.port;
  return {
    server,
    port,
    viewers,
    close: async () => {
      viewers.closeAll();
      opts.transport.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // An event stream lasts until its client leaves: it gets a moment to end, then is cut.
        setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
      });
    },
  };
}

function refuse(res: ServerResponse, status: 403 | 429): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(status === 403 ? REFUSED_BODY : 'too many requests\n');
}

function serveAsset(req: IncomingMessage, res: ServerResponse, asset: Asset): void {
  // The shell must be fresh (it names the assets of this version); the service worker too.
  res.writeHead(200, { 'Content-Type': asset.type, 'Content-Length': asset.body.length, 'Cache-Control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : asset.body);
}
