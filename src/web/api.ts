// The HTTP API, behind the gate (web/http-server.ts has checked Host, Origin and the token):
//   POST   /api/session                the page's one exchange: Bearer token → the cookie
//   DELETE /api/session                signs this browser out
//   GET    /api/status                 read-only or not, the terminal transport, push
//   GET    /api/tasks                  `ls --json`'s array
//   GET    /api/fleet                  the page's list: every task in the dashboard's order, hosts too
//   POST   /api/tasks/:id/send         {"text": …} → `send --json`'s verdict
//   GET    /api/tasks/:id/output       `output --json`
//   GET    /api/tasks/:id/history      `history --cwd <its directory> --json`
//   POST   /api/history/:id/resume     `resume <id>` → {"task": N}
//   GET    /api/events                 `events --json`, one JSON line per event (NDJSON)
//   GET    /api/push/key · POST/DELETE /api/push/subscription   Web Push (web/push/)
// Mutations are refused under --read-only, whatever the page shows.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NoFleetError } from '../errors.js';
import { isFleetError } from '../errors.js';
import type { LsRecord } from '../control/replies.js';
import { clearedCookie, sessionCookie } from './credentials.js';
import type { ApiContext } from './context.js';
import type { VerbAnswer } from './fleet-port.js';
import { fleetView } from './fleet-view.js';


/** The largest request body taken (a message of send's own 256 KiB limit, as JSON, fits). */
export const MAX_BODY = 1024 * 1024;
/** The longest message the box may send; `send` has its own limit too. */
export const MAX_TEXT = 256 * 1024;

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

export async function handleApi(req: IncomingMessage, res: ServerResponse, ctx: ApiContext): Promise<void> {
  res.setHeader('Cache-Control', 'no-store');
  try {
    await route(req, res, ctx);
  } catch (error) {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (error instanceof HttpError) return json(res, error.status, { error: error.message });
    if (error instanceof NoFleetError) return json(res, 503, { error: error.message });
    if (isFleetError(error)) return json(res, 502, { error: (error as Error).message });
    throw error;
  }
}

async function route(req: IncomingMessage, res: ServerResponse, ctx: ApiContext): Promise<void> {
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?')[0]!;
  const mutation = method !== 'GET' && method !== 'HEAD';
  if (path === '/api/session') {
    if (method === 'POST') {
      // The exchange itself came with the Bearer token (the gate checked it): the cookie follows.
      const secure = (req.headers.origin ?? '').startsWith('https:');
      res.writeHead(204, { 'Set-Cookie': sessionCookie(ctx.port(), ctx.token(), secure) });
      return void res.end();
    }
    if (method === 'DELETE') {
      res.writeHead(204, { 'Set-Cookie': clearedCookie(ctx.port()) });
      return void res.end();
    }
  }
  if (mutation && ctx.readOnly && path !== '/api/session') throw new HttpError(403, 'read-only: this server changes nothing (fleetcom web --read-only)');
  if (method === 'GET' && path === '/api/status') {
    return json(res, 200, { readOnly: ctx.readOnly, transport: ctx.transport.kind, push: ctx.push?.status() ?? { available: false, why: 'push is off' }, viewers: ctx.viewers.all.size, version: ctx.version });
  }
  if (method === 'GET' && path === '/api/tasks') return json(res, 200, await ctx.fleet.tasks());
  if (method === 'GET' && path === '/api/fleet') {
    const [local, hosts] = await Promise.all([ctx.fleet.tasks().catch((e: unknown) => {
      if (e instanceof NoFleetError) return null;
      throw e;
    }), ctx.fleet.hosts()]);
    return json(res, 200, { readOnly: ctx.readOnly, ...fleetView(local, hosts, ctx.now()) });
  }
  if (method === 'GET' && path === '/api/events') return events(req, res, ctx);
  let m = /^\/api\/tasks\/(\d{1,9})\/(send|output|history)$/.exec(path);
  if (m) {
    const id = Number(m[1]);
    if (m[2] === 'send' && method === 'POST') {
      const body = await jsonBody(req);
      const text = (body as { text?: unknown }).text;
      if (typeof text !== 'string' || text.trim() === '') throw new HttpError(400, 'expected {"text": "…"} with some text');
      if (Buffer.byteLength(text) > MAX_TEXT) throw new HttpError(413, `the message is over ${MAX_TEXT / 1024} KiB`);
      return answer(res, await ctx.fleet.send(id, text));
    }
    if (m[2] === 'output' && method === 'GET') return answer(res, await ctx.fleet.output(id));
    if (m[2] === 'history' && method === 'GET') return answer(res, await ctx.fleet.history((await taskOf(ctx, id)).cwd));
  }
  m = /^\/api\/history\/([A-Za-z0-9_.:-]{4,200})\/resume$/.exec(path);
  if (m && method === 'POST') return answer(res, await ctx.fleet.resume(m[1]!));
  if (path.startsWith('/api/push/')) {
    if (ctx.push === null) throw new HttpError(404, 'push is off on this server');
    if (method === 'GET' && path === '/api/push/key') return json(res, 200, { key: ctx.push.publicKey() });
    if (path === '/api/push/subscription' && (method === 'POST' || method === 'DELETE')) {
      const problem = method === 'POST' ? await ctx.push.subscribe(await jsonBody(req)) : await ctx.push.unsubscribe(await jsonBody(req));
      if (problem !== null) throw new HttpError(400, problem);
      return json(res, 200, { ok: true });
    }
  }
  throw new HttpError(404, `no ${method} ${path}`);
}

async function taskOf(ctx: ApiContext, id: number): Promise<LsRecord> {
  const task = (await ctx.fleet.tasks()).find((t) => t.id === id);
  if (task === undefined) throw new HttpError(404, `no task ${id}`);
  return task;
}

/** How long the events stream waits for its verb to fail at once (no fleet, no such verb) before it answers 200. */
const EVENTS_HEADERS_MS = 1_500;

/**
 * The events stream: NDJSON, one event a line, for as long as the client stays. A client waits
 * for the headers before it reads on, so they go out with the first event or after a moment
 * at most; a verb that failed before then answers with its own status, one that fails later
 * ends the stream with an `{"error": …}` line.
 */
async function events(req: IncomingMessage, res: ServerResponse, ctx: ApiContext): Promise<void> {
  const stop = new AbortController();
  res.on('close', () => stop.abort());
  let started = false;
  const start = () => {
    if (started || res.writableEnded) return;
    started = true;
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'X-Accel-Buffering': 'no' });
    res.flushHeaders();
  };
  const timer = setTimeout(start, EVENTS_HEADERS_MS);
  const end = await ctx.fleet.events((event) => {
    start();
    res.write(`${JSON.stringify(event)}\n`);
  }, stop.signal);
  clearTimeout(timer);
  if (!started) return answer(res, end);
  if (end.status !== 200 && !stop.signal.aborted) res.write(`${JSON.stringify({ error: (end.body as { error?: unknown } | null)?.error ?? `events ended (${end.status})` })}\n`);
  res.end();
}

function answer(res: ServerResponse, a: VerbAnswer): void {
  json(res, a.status, a.body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new HttpError(415, 'expected Content-Type: application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, `the request body is over ${MAX_BODY / 1024} KiB`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the request body is not JSON');
  }
}
