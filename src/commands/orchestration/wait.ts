// `fleetcom wait <task…> [--any | --all] [--until waiting|needs-you|exited] [--turn N]
// [--timeout S] [--json]`: until the condition holds, judged by the supervisor from its own
// state and each event of the feed (a streamed request: fleet/turns/wait.ts), never by asking
// tmux here. Exit 0 when met; 1 on timeout or when it can no longer be met, saying what each
// task is doing; 2 on bad usage.
import { streamSupervisor } from '../../control/client.js';
import { feedEventCheck, type FeedEvent, type ReplyOf, type WaitTask } from '../../control/replies.js';
import type { Deps } from '../../deps.js';
import { FleetError, UsageError } from '../../errors.js';
import { formatAge } from '../../format-age.js';
import { fleetRuntime } from '../../paths.js';
import { timeoutMs } from './seconds.js';

export type WaitResult = ReplyOf<'wait'>;
export type WaitUntil = 'waiting' | 'needs-you' | 'exited';

/** What a wait asks (the in-process API). */
export interface WaitOptions {
  tasks: string[];
  mode?: 'any' | 'all';
  until?: WaitUntil;
  turn?: number | null;
  /** null: no bound (until met, or the fleet goes down). */
  timeoutMs?: number | null;
  /** Each event of the waited tasks as it comes; 'stop' ends the wait at once (the result is then null). */
  onEvent?: (event: FeedEvent) => void | 'stop';
  socket?: string;
}

export function waitOn(deps: Pick<Deps, 'env'>, opts: WaitOptions): Promise<WaitResult | null> {
  return streamSupervisor(opts.socket ?? fleetRuntime(deps.env).socket, {
    op: 'wait', tasks: opts.tasks, mode: opts.mode ?? 'all', until: opts.until ?? 'waiting', turn: opts.turn ?? null, timeoutMs: opts.timeoutMs ?? null,
  }, { onEvent: (event) => opts.onEvent?.(feedEventCheck(event, 'event')) });
}

/** A waited task's doing, in words: `task 3 (claude): working on turn 2 for 42 s`. */
export function doingLine(t: WaitTask, now: number): string {
  const since = t.since === null ? '' : ` for ${formatAge(now - Date.parse(t.since))}`;
  const turn = t.turn === null ? '' : t.attention === 'working' ? ` on turn ${t.turn}` : t.turn > 0 ? ` after turn ${t.turn}` : '';
  const doing = t.state === 'removed' ? 'removed from the fleet'
    : t.state === 'exited' ? (t.exitStatus === null ? 'exited' : `exited with status ${t.exitStatus}`)
    : t.attention === null ? `${t.state}, with no attention signal`
    : t.question ? `asking a question${turn}` : `${t.attention}${turn}`;
  return `task ${t.task} (${t.label}): ${doing}${t.state === 'removed' ? '' : since}`;
}

export interface WaitFlags {
  any?: boolean;
  all?: boolean;
  until?: string;
  turn?: string;
  timeout?: string;
  json?: boolean;
}

export function waitOptionsOf(tasks: string[], opts: WaitFlags): WaitOptions {
  if (opts.any && opts.all) throw new UsageError('wait takes --any or --all, not both');
  if (opts.until !== undefined && !['waiting', 'needs-you', 'exited'].includes(opts.until)) throw new UsageError(`--until ${opts.until}: expected waiting, needs-you or exited`);
  if (opts.turn !== undefined && !/^[1-9]\d{0,8}$/.test(opts.turn)) throw new UsageError(`--turn ${opts.turn}: expected a turn number (1, 2, …)`);
  if (opts.turn !== undefined && opts.until === 'exited') throw new UsageError('--turn goes with --until waiting or needs-you');
  return {
    tasks, mode: opts.any ? 'any' : 'all', until: (opts.until ?? 'waiting') as WaitUntil,
    turn: opts.turn === undefined ? null : Number(opts.turn), timeoutMs: timeoutMs(opts.timeout, null),
  };
}

export async function runWait(tasks: string[], opts: WaitFlags, deps: Deps): Promise<number> {
  const result = await waitOn(deps, waitOptionsOf(tasks, opts));
  if (result === null) throw new FleetError('the wait ended without a result');
  if (opts.json) deps.stdout.write(`${JSON.stringify(result)}\n`);
  else for (const t of result.tasks.filter((t) => t.met)) deps.stdout.write(`${t.task}\n`);
  if (result.met) return 0;
  const now = deps.now();
  const head = result.timedOut ? 'timed out' : `not met: ${result.why ?? 'it can no longer be met'}`;
  deps.stderr.write(`fleetcom: wait ${head}\n${result.tasks.map((t) => `  ${doingLine(t, now)}\n`).join('')}`);
  return 1;
}
