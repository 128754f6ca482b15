// Poll a predicate until it yields a value; never a fixed sleep (style.md, libtmux retry_until).
//
//   const text = await waitFor(() => capture(pane).then((t) => t.includes('ready') && t), { what: 'ready marker' });
//
// The predicate returns a value: `undefined`, `null` and `false` mean "not yet", anything else
// is the result. A throwing predicate also means "not yet" (its error is remembered). On
// timeout the error names `what` and shows the last value (or error) seen.
import { setTimeout as sleep } from 'node:timers/promises';
import { inspect } from 'node:util';

export interface WaitForOptions {
  /** Milliseconds before giving up (default 20 s: generous for a loaded 2-core machine). */
  timeout?: number;
  /** Milliseconds between polls (default 50). */
  interval?: number;
  /** What is awaited, for the error message. */
  what: string;
}

type Pending = undefined | null | false;

export async function waitFor<T>(fn: () => T | Pending | Promise<T | Pending>, opts: WaitForOptions): Promise<T> {
  const timeout = opts.timeout ?? 20_000;
  const interval = opts.interval ?? 50;
  const deadline = Date.now() + timeout;
  let last: unknown = undefined;
  let lastError: unknown = undefined;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined && value !== null && value !== false) return value;
      last = value;
      lastError = undefined;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() >= deadline) break;
    await sleep(interval);
  }
  const seen = lastError !== undefined ? `last error: ${inspect(lastError)}` : `last value: ${inspect(last, { depth: 4 })}`;
  throw new Error(`timed out after ${timeout} ms waiting for ${opts.what}; ${seen}`);
}
