// The server in-process on a loopback port, with a fleet and a pane transport that are plain
// objects (no tmux): the cookie exchange, a rotation, the lockout, and --read-only enforced by
// the server itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { LsRecord } from '../../src/control/replies.js';
import { allowedHosts } from '../../src/web/access.js';
import type { FleetPort } from '../../src/web/fleet-port.js';
import { startWebServer, type WebServer } from '../../src/web/http-server.js';
import type { PaneTransport } from '../../src/web/pane-transport.js';
import { loadToken, TokenSource } from '../../src/web/token-store.js';
import { waitFor } from '../helpers/wait-for.js';

const TASK = { id: 1, run: 0, cwd: '/w', command: 'claude', name: null, group: null, tagged: false, state: 'running', exitStatus: null, killed: false, harness: 'claude', conversationId: null, idSource: null, resumeCommand: 'claude', parkedJob: null, windowId: '@1', paneId: '%1', spawnedAt: '2026-01-01T00:00:00.000Z', lastOutputAt: '2026-01-01T00:00:00.000Z', attention: 'waiting', attentionSince: '2026-01-01T00:00:00.000Z' } as LsRecord;

interface World {
  web: WebServer;
  token: string;
  file: string;
  typed: Buffer[];
  sent: string[];
  get(path: string, headers?: Record<string, string>, method?: string, body?: string): Promise<{ status: number; cookie: string; text: string }>;
}

const worlds: Array<{ web: WebServer; dir: string }> = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) {
    await w.web.close();
    rmSync(w.dir, { recursive: true, force: true });
  }
});

async function world(readOnly = false): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'fleetcom-web-unit-'));
  const file = join(dir, 'web', 'token');
  const token = loadToken(file, false);
  const typed: Buffer[] = [];
  const sent: string[] = [];
  const fleet: FleetPort = {
    tasks: async () => [TASK],
    hosts: async () => [],
    send: async (task, text) => {
      sent.push(text);
      return { status: 200, body: { task, verdict: 'submitted' } };
    },
    output: async () => ({ status: 200, body: { text: 'hi' } }),
    history: async () => ({ status: 200, body: [] }),
    resume: async () => ({ status: 200, body: { task: 2 } }),
    events: async () => ({ status: 200, body: null }),
  };
  const transport: PaneTransport = {
    kind: 'test',
    watch: (_pane, viewer) => {
      viewer.size({ cols: 80, rows: 24 });
      viewer.bytes(Buffer.from('screen'));
    },
    input: async (_pane, data) => {
      typed.push(data);
    },
    close: () => {},
  };
  const web = await startWebServer({
    port: 0, bind: '127.0.0.1', readOnly, allowed: allowedHosts('127.0.0.1', [], []), token: new TokenSource(file, token), fleet, transport,
    assets: new Map([['/', { body: Buffer.from('<html>'), type: 'text/html' }]]), pingMs: 60_000, push: null, log: () => {}, now: Date.now, version: 'test',
    lockout: { free: 1, limit: 3, windowMs: 60_000, lockMs: 60_000, delayMs: 1, maxDelayMs: 2 },
  });
  worlds.push({ web, dir });
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) => new Promise<{ status: number; cookie: string; text: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, path, method, headers: { Host: `127.0.0.1:${web.port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode ?? 0, cookie: String(res.headers['set-cookie'] ?? ''), text }));
    });
    req.on('error', reject);
    req.end(body);
  });
  return { web, token, file, typed, sent, get };
}

describe('the cookie exchange', () => {
  it('trades the Bearer token once for an HttpOnly SameSite=Strict cookie that then opens the API, and nothing else does', async () => {
    const w = await world();
    const origin = `http://127.0.0.1:${w.web.port}`;
    expect((await w.get('/api/tasks')).status).toBe(403);
    expect((await w.get('/api/session', { Origin: origin, Authorization: 'Bearer wrong' }, 'POST')).status).toBe(403);
    const exchange = await w.get('/api/session', { Origin: origin, Authorization: `Bearer ${w.token}` }, 'POST');
    expect(exchange.status).toBe(204);
    expect(exchange.cookie).toMatch(new RegExp(`^fleetcom-web-${w.web.port}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict; Max-Age=\\d+$`));
    // The cookie is derived from the token, not the token.
    expect(exchange.cookie).not.toContain(w.token);
    const jar = exchange.cookie.split(';')[0]!;
    expect((await w.get('/api/tasks', { Cookie: jar })).status).toBe(200);
    expect((await w.get('/api/tasks', { Cookie: `${jar.split('=')[0]}=${'A'.repeat(43)}` })).status).toBe(403);
    // Over https (a proxy's page) the cookie is Secure.
    const secure = await w.get('/api/session', { Origin: `https://127.0.0.1:${w.web.port}`, Authorization: `Bearer ${w.token}` }, 'POST');
    expect(secure.cookie).toMatch(/; Secure$/);
  });

  it('signs every cookie out when the token is rotated, in a server already running', async () => {
    const w = await world();
    const origin = `http://127.0.0.1:${w.web.port}`;
    const jar = (await w.get('/api/session', { Origin: origin, Authorization: `Bearer ${w.token}` }, 'POST')).cookie.split(';')[0]!;
    expect((await w.get('/api/tasks', { Cookie: jar })).status).toBe(200);
    const fresh = loadToken(w.file, true);
    expect(fresh).not.toBe(w.token);
    expect((await w.get('/api/tasks', { Cookie: jar })).status).toBe(403);
    expect((await w.get('/api/tasks', { Authorization: `Bearer ${w.token}` })).status).toBe(403);
    expect((await w.get('/api/tasks', { Authorization: `Bearer ${fresh}` })).status).toBe(200);
  });

  it('locks a peer out after repeated bad tokens, the right one included', async () => {
    const w = await world();
    for (let i = 0; i < 3; i++) expect((await w.get('/api/tasks', { Authorization: 'Bearer nope' })).status).toBe(403);
    expect((await w.get('/api/tasks', { Authorization: `Bearer ${w.token}` })).status).toBe(403);
  });
});

describe('--read-only, enforced by the server', () => {
  it('refuses every mutation and every input frame, and still shows the terminal', async () => {
    const w = await world(true);
    const auth = { Authorization: `Bearer ${w.token}`, 'Content-Type': 'application/json' };
    const send = await w.get('/api/tasks/1/send', auth, 'POST', '{"text":"rm -rf /"}');
    expect(send.status).toBe(403);
    expect(send.text).toMatch(/read-only/);
    expect((await w.get('/api/history/0199aabb-cc/resume', auth, 'POST')).status).toBe(403);
    expect(w.sent).toEqual([]);
    expect((await w.get('/api/tasks', auth)).status).toBe(200);

    const ws = new WebSocket(`ws://127.0.0.1:${w.web.port}/api/tasks/1/terminal`, { headers: { Authorization: `Bearer ${w.token}` } });
    const controls: Array<Record<string, unknown>> = [];
    const screens: string[] = [];
    ws.on('message', (data, binary) => (binary ? screens.push(String(data)) : controls.push(JSON.parse(String(data)) as Record<string, unknown>)));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(Buffer.from('echo typed\r'));
    ws.send(JSON.stringify({ type: 'ping', n: 7 }));
    await waitFor(() => controls.some((c) => c.type === 'pong'), { what: 'the pong' });
    expect(controls.find((c) => c.type === 'hello')).toMatchObject({ readOnly: true });
    expect(controls.find((c) => c.type === 'error')?.error).toMatch(/read-only/);
    expect(screens).toEqual(['screen']);
    expect(w.typed).toEqual([]);
    ws.close();
  });

  it('without it, the same frame reaches the pane and a message reaches send', async () => {
    const w = await world(false);
    const auth = { Authorization: `Bearer ${w.token}`, 'Content-Type': 'application/json' };
    expect((await w.get('/api/tasks/1/send', auth, 'POST', '{"text":"hello"}')).status).toBe(200);
    expect(w.sent).toEqual(['hello']);
    const ws = new WebSocket(`ws://127.0.0.1:${w.web.port}/api/tasks/1/terminal`, { headers: { Authorization: `Bearer ${w.token}` } });
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(Buffer.from('echo typed\r'));
    await waitFor(() => w.typed.length > 0, { what: 'the input' });
    expect(Buffer.concat(w.typed).toString()).toBe('echo typed\r');
    ws.close();
  });
});
