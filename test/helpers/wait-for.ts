// Poll a predicate until it yields a value; never a fixed sleep (style.md, libtmux retry_until).
// The one waitFor of the test suites (integration/helpers/wait-for.ts re-exports it):
//
//   const events = await waitFor(() => seen.length >= 2 && seen, { what: 'two events' });
//
// `undefined`, `null` and `false` mean "not yet", anything else is the result; a throwing
// predicate also means "not yet". On timeout the error names `what` and the last value seen.
import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';

export interface WaitForOptions {
  /** What is awaited, for the error message. */
  what: string;
  /** Milliseconds before giving up (default 20 s: generous for a loaded 2-core machine). */
  timeout?: number;
  /** Milliseconds between polls (default 20). */
  interval?: number;
}

type Pending = undefined | null | false;

export async function waitFor<T>(fn: () => T | Pending | Promise<T | Pending>, opts: WaitForOptions): Promise<T> {
  const timeout = opts.timeout ?? 20_000;
  const interval = opts.interval ?? 20;
  const deadline = Date.now() + timeout;
  let last: unknown;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined && value !== null && value !== false) return value;
      last = value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) break;
    await sleep(interval);
  }
  const seen = lastError !== undefined ? `last error: ${inspect(lastError)}` : `last value: ${inspect(last, { depth: 4 })}`;
  throw new Error(`timed out after ${timeout} ms waiting for ${opts.what}; ${seen}`);
}
