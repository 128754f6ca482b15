// A reply that is a stream: the supervisor sends events, one JSON line each, before the one
// reply that ends the exchange. For requests that last (a wait, the event feed, a watched
// pane), where one reply per connection would make the client ask again and again. The
// keepalive goes on between events, so a hung supervisor is still told from a quiet stream.
//
// On the wire: `{"event": …}\n` per event, then the reply as ever (`{"ok": …}`). A client
// that goes away aborts the stream's signal; a producer faster than the socket is told so by
// `send` returning false, and waits for `drained()` (the socket's buffer, not the supervisor's
// memory, holds what the reader has not taken).

export interface StreamOut {
  /** Writes one event; false when the socket's buffer is full: await `drained()` before more. */
  send(event: unknown): boolean;
  /** Resolves once the socket has taken what was buffered, or the client has gone. */
  drained(): Promise<void>;
  /** Aborted when the client closes the connection: stop producing. */
  readonly signal: AbortSignal;
}

/** What a handler returns for a streamed reply: `run` produces events and returns the final result. */
export class Streamed<T = unknown> {
  constructor(readonly run: (out: StreamOut) => Promise<T>) {}
}

/** The line of one event. */
export function eventLine(event: unknown): string {
  return `${JSON.stringify({ event })}\n`;
}

/**
 * Splits what a streamed exchange has received so far: the events of every complete event
 * line, and the rest (the reply, or the start of a line still arriving). Keepalive spaces may
 * lead any line.
 */
export function takeEvents(text: string): { events: unknown[]; rest: string } {
  const events: unknown[] = [];
  let rest = text;
  for (;;) {
    const start = rest.length - rest.trimStart().length;
    if (!rest.startsWith('{"event":', start)) break;
    const newline = rest.indexOf('\n', start);
    if (newline < 0) break;
    events.push((JSON.parse(rest.slice(start, newline)) as { event: unknown }).event);
    rest = rest.slice(newline + 1);
  }
  return { events, rest };
}
