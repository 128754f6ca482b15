// The protocol version and the reply as a client reads it, apart from protocol.ts's zod
// schemas: client commands (`ls`, `run`, `kill`, …) load only this. The reply is checked by
// hand because any zod import, zod/mini included, puts zod's shared core chunk (~650 KB, the
// part classic zod's `z` namespace keeps whole for the supervisor) on every command's start:
// measured ~35 ms of `ls`'s CPU on 2 cores, more than its whole budget over `node -e 0`.

// 2: while the supervisor works on a request it writes a space every KEEPALIVE_MS before the
// reply (still one JSON document: JSON allows leading whitespace, so a client of version 1
// reads it too), and a client gives up after a few silent keepalives (client.ts).
export const PROTOCOL_VERSION = 2;

/** How often a supervisor shows it is still working on a request. */
export const KEEPALIVE_MS = 1_000;

export type Reply = { ok: true; result: unknown } | { ok: false; error: string; exitCode: number };

/** The reply, or null when the value is not one (a missing result counts as undefined). */
export function readReply(value: unknown): Reply | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const reply = value as Record<string, unknown>;
  if (reply.ok === true) return { ok: true, result: reply.result };
  if (reply.ok === false && typeof reply.error === 'string' && Number.isInteger(reply.exitCode)) {
    return { ok: false, error: reply.error, exitCode: reply.exitCode as number };
  }
  return null;
}
