// `fleetcom web` inside a sandbox: the built CLI on an ephemeral port of 127.0.0.1, its URL
// read from stdout, stopped (by its pid) when the test ends.
//
//   const web = await startWeb(sb);                  // or startWeb(sb, ['--read-only'])
//   const res = await web.fetch('/api/tasks');      // with the token as Bearer
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { onTestFinished } from 'vitest';
import xterm from '@xterm/headless';
import { WebSocket, type ClientOptions } from 'ws';
import { cliPath } from './cli.js';
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

export interface Web {
  url: string;
  origin: string;
  port: number;
  token: string;
  process: ChildProcess;
  /** What it printed on stderr so far. */
  log(): string;
  /** fetch on the server; the Bearer token unless `auth: false`. */
  fetch(path: string, init?: RequestInit & { auth?: boolean }): Promise<Response>;
  /**
   * A raw HTTP request (node:http, which unlike fetch lets a test set Host); the Bearer token
   * unless `auth: false`; a header given as '' is not sent.
   */
  request(path: string, opts?: { method?: string; headers?: Record<string, string>; body?: string; auth?: boolean }): Promise<RawResponse>;
  /** A terminal socket of `task` (Bearer token and the page's Origin unless said otherwise). */
  socket(task: number | string, opts?: ClientOptions & { auth?: boolean; path?: string }): WebSocket;
  stop(): Promise<void>;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export async function startWeb(sb: Sandbox, args: string[] = [], env: Record<string, string> = {}): Promise<Web> {
  const child = spawn(process.execPath, [cliPath, 'web', '--port', '0', ...args], { env: { ...sb.env, ...env }, cwd: sb.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, { what: 'fleetcom web to stop', timeout: 10_000 }).catch(() => child.kill('SIGKILL'));
  };
  onTestFinished(stop);
  const url = await waitFor(() => /^http:\/\/\S+#token=\S+$/m.exec(stdout)?.[0] ?? (child.exitCode !== null ? Promise.reject(new Error(`fleetcom web exited ${child.exitCode}: ${stderr}`)) : false), { what: 'fleetcom web to print its URL', timeout: 30_000 });
  const parsed = new URL(url);
  const token = parsed.hash.replace('#token=', '');
  const origin = parsed.origin;
  return {
    url, origin, port: Number(parsed.port), token, process: child, log: () => stderr, stop,
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (init.auth !== false && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
      return fetch(`${origin}${path}`, { ...init, headers });
    },
    request: (path, opts = {}) => new Promise((resolve, reject) => {
      const headers: Record<string, string> = { Host: `127.0.0.1:${parsed.port}`, ...opts.headers };
      if (opts.auth !== false && headers.Authorization === undefined) headers.Authorization = `Bearer ${token}`;
      for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
      const req = httpRequest({ host: '127.0.0.1', port: parsed.port, path, method: opts.method ?? 'GET', headers, setHost: false }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on('error', reject);
      req.end(opts.body);
    }),
    socket: (task, opts = {}) => {
      const headers: Record<string, string> = { Origin: origin, ...(opts.headers as Record<string, string> | undefined) };
      if (opts.auth !== false && headers.Authorization === undefined) headers.Authorization = `Bearer ${token}`;
      // An empty value: that header is not sent at all.
      for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
      return new WebSocket(`ws://127.0.0.1:${parsed.port}${opts.path ?? `/api/tasks/${task}/terminal`}`, { ...opts, headers });
    },
  };
}

/** What a terminal socket received: its text frames parsed, its binary frames drawn as the page draws them. */
export interface Received {
  controls: Array<Record<string, unknown>>;
  /** The screen's rows as a terminal emulator (xterm.js, headless) shows the bytes so far. */
  rows: () => string[];
}

export function receive(ws: WebSocket): Received {
  const controls: Array<Record<string, unknown>> = [];
  // The page's own emulator, without a browser: whatever the transport sends (whole screens or
  // a pane's raw output), the rows read here are what a person would see.
  const term = new xterm.Terminal({ cols: 80, rows: 24, allowProposedApi: true, scrollback: 0 });
  ws.on('message', (data, binary) => {
    const bytes = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
    if (binary) return term.write(bytes);
    const msg = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
    controls.push(msg);
    if (msg.type === 'size') term.resize(msg.cols as number, msg.rows as number);
  });
  const rows = () => {
    const buffer = term.buffer.active;
    return Array.from({ length: term.rows }, (_, i) => buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
  };
  return { controls, rows };
}

/** The opening of a socket, or why it was refused (the HTTP status of a refused upgrade). */
export function opened(ws: WebSocket): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve('open'));
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', (e) => reject(e));
  });
}
