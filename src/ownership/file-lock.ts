// Who may rewrite a shared file right now: a short exclusive lock `<file>.lock` beside it,
// naming its holder by pid and process start time. A read-modify-write of a list that several
// fleetcom processes change at once (ten `run --worktree` started together each add their
// worktree to worktrees.json) goes under it, so none writes back a list read before another's
// entry was added. A lock whose holder has ended is stale and broken by exactly one taker (the
// one that creates `<lock>.break-<digest of its text>`, the way the supervisor's lock is
// taken over), so two takers never both remove it; a live holder is waited for. Also one
// `git worktree add` at a time per repository (worktrees/create.ts).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseLock } from '../control/lock-record.js';
import { FleetError } from '../errors.js';
import { createWhole, removeFile } from '../fs-safety.js';
import { fieldsOf, PROC_ROOT, startTicks } from './proc.js';

/** How long a taker waits for a live holder (the sections under it take milliseconds). */
export const LOCK_WAIT_MS = 20_000;
const POLL_MS = 10;

export interface LockOptions {
  waitMs?: number;
  proc?: string;
}

/** The process a lock's text names is still that process (this one counts: another section of it holds it). */
export function holderAlive(text: string, proc = PROC_ROOT): boolean {
  const holder = parseLock(text);
  if (holder === null) return false;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  let stat: string;
  try {
    stat = readFileSync(`${proc}/${holder.pid}/stat`, 'utf8');
  } catch {
    return true; // no /proc: the pid is all there is to go by
  }
  const state = fieldsOf(stat)?.[0];
  if (state === 'Z' || state === 'X') return false;
  return holder.start === null || startTicks(proc, holder.pid) === holder.start;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes `file` hold `text`; resolves once it does. A live holder is waited for until
 * `deadline`; a stale one is broken first (by the one taker that wins its break file).
 */
async function claim(file: string, text: string, deadline: number, proc: string, waitMs: number): Promise<void> {
  for (;;) {
    if (createWhole(file, text)) return;
    const current = readOrNull(file);
    if (current === null) continue; // released meanwhile
    if (holderAlive(current, proc)) {
      if (Date.now() > deadline) {
        throw new FleetError(`${file} is held by pid ${parseLock(current)?.pid ?? '?'} for longer than ${Math.round(waitMs / 1000)} s; nothing was written (remove ${file} if that process is not fleetcom)`);
      }
      await sleep(POLL_MS);
      continue;
    }
    const breaker = `${file}.break-${createHash('sha256').update(current).digest('hex').slice(0, 16)}`;
    await claim(breaker, text, deadline, proc, waitMs);
    try {
      // Still the stale text (no other taker can have replaced it while we hold the break file).
      if (readOrNull(file) === current) removeFile(file);
    } finally {
      removeFile(breaker);
    }
  }
}

/**
 * Runs `section` while holding `<file>.lock`; the lock is released after, also when `section`
 * throws. Other callers — other sections of this process too — wait meanwhile (a nested
 * section on the same file would wait for itself: never nest one).
 */
export async function withFileLock<T>(file: string, section: () => T | Promise<T>, opts: LockOptions = {}): Promise<T> {
  const lock = `${file}.lock`;
  const proc = opts.proc ?? PROC_ROOT;
  const text = `${process.pid}\nstart ${startTicks(proc, process.pid) ?? '-'}\ntoken ${randomBytes(8).toString('hex')}\n`;
  const waitMs = opts.waitMs ?? LOCK_WAIT_MS;
  await claim(lock, text, Date.now() + waitMs, proc, waitMs);
  try {
    return await section();
  } finally {
    if (readOrNull(lock) === text) removeFile(lock);
  }
}
