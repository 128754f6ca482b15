// A loopback HTTP server standing in for a webhook or ntfy: it records every request (when it
// came, its headers and JSON body) and answers 200, or never answers (`hang`). Closed with the test.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

export interface SinkRequest {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The client gave up on a request left unanswered (`hang`). */
  abandoned: boolean;
}

export async function alertSink(opts: { hang?: boolean } = {}): Promise<{ url: string; requests: SinkRequest[] }> {
  const requests: SinkRequest[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { unparsed: text };
      }
      const request: SinkRequest = { at: Date.now(), path: req.url ?? '', headers: req.headers, body, abandoned: false };
      requests.push(request);
      res.on('close', () => (request.abandoned = !res.writableEnded));
      if (opts.hang) held.push(res);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}
