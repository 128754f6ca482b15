// The suite's polls: the one waitFor (integration/helpers/wait-for.ts) at intervals that leave
// the 2 cores to the real clients. Its default 20 ms suits in-process checks; here a task poll
// is `fleetcom ls --json`, a Node start of ~0.2 s CPU (measured: 0.14 s user + 0.06 s sys), and
// a 20 ms loop starts the next as soon as one has answered. A pane poll is a tmux client (~5 ms).
import type { Fleet } from '../../integration/helpers/fleet.js';
import { paneText } from '../../integration/helpers/pane.js';
import type { Sandbox } from '../../integration/helpers/sandbox.js';
import { waitFor as waitForEvery, type WaitForOptions } from '../../integration/helpers/wait-for.js';
import type { LsRecord } from '../../src/control/protocol.js';

/** Between two reads of a pane or a file. */
export const POLL_MS = 100;
/** Between two `ls --json` (each a Node start). */
export const TASK_POLL_MS = 250;

type Pending = undefined | null | false;

/** waitFor, polling every POLL_MS unless told otherwise. */
export function waitFor<T>(fn: () => T | Pending | Promise<T | Pending>, opts: WaitForOptions): Promise<T> {
  return waitForEvery(fn, { interval: POLL_MS, ...opts });
}

/** Waits until the task's record satisfies `predicate`; returns it. */
export function waitTask(fleet: Fleet, id: string | number, predicate: (t: LsRecord) => boolean, what: string, timeout?: number): Promise<LsRecord> {
  return waitForEvery(async () => {
    const t = await fleet.task(id);
    return predicate(t) ? t : false;
  }, { what: `task ${id}: ${what}`, timeout, interval: TASK_POLL_MS });
}

/** Waits until the pane's text contains `needle`; returns the text, or throws showing the pane. */
export function waitForText(sb: Sandbox, pane: string, needle: string | RegExp, timeout?: number): Promise<string> {
  return waitFor(async () => {
    const text = await paneText(sb, pane);
    return (typeof needle === 'string' ? text.includes(needle) : needle.test(text)) ? text : false;
  }, { what: `pane ${pane} to show ${String(needle)}`, timeout }).catch(async (e: Error) => {
    throw new Error(`${e.message}\n--- pane ${pane} ---\n${await paneText(sb, pane).catch(() => '(gone)')}`);
  });
}
