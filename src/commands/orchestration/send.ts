// `fleetcom send <task> [text…] [--file F | -] [--now] [--timeout S] [--json]`: one message
// into an agent task, confirmed by the agent (fleet/delivery/send.ts decides, on the
// supervisor). stdout: the turn it started (--json: the whole verdict); stderr: the verdict in
// words. Exit 0 only for `submitted` (a plain command: `typed`).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ReplyOf } from '../../control/protocol.js';
import type { Deps } from '../../deps.js';
import { describeFsError, FleetError, UsageError } from '../../errors.js';
import { ask } from '../ask.js';
import { readStdinText } from '../fleet/recipe-io.js';
import { timeoutMs } from './seconds.js';

export type SendResult = ReplyOf<'send'>;

/** What a send asks (the in-process API: the MCP and web servers call sendText with this). */
export interface SendOptions {
  task: string;
  text: string;
  /** Type into a busy agent too (its own queue or steer takes it). */
  now?: boolean;
  /** The whole send's bound, the wait for the task to need input included (default 60 s). */
  timeoutMs?: number;
}

export const SEND_TIMEOUT_MS = 60_000;

/** Sends one message and returns the supervisor's verdict (throws FleetError for a refused text or an unknown task). */
export function sendText(deps: Pick<Deps, 'env'>, opts: SendOptions, socket?: string): Promise<SendResult> {
  return ask(deps, { op: 'send', task: opts.task, text: opts.text, now: opts.now === true, timeoutMs: opts.timeoutMs ?? SEND_TIMEOUT_MS }, socket);
}

/** Exit 0 only when the agent took it (or a plain command was typed into). */
export function sendExitCode(result: SendResult): number {
  return result.verdict === 'submitted' || result.verdict === 'typed' ? 0 : 1;
}

/** The verdict in words, for stderr. */
export function sendLine(result: SendResult): string {
  const turn = result.turn === null ? '' : ` (turn ${result.turn})`;
  return `task ${result.task}: ${result.verdict.replaceAll('_', ' ')}${turn} in ${result.ms} ms${result.reason === null ? '' : `: ${result.reason}`}`;
}

export interface SendFlags {
  file?: string;
  now?: boolean;
  timeout?: string;
  json?: boolean;
}

/** The message: the words, a file, or stdin (`-`); exactly one of them. */
export async function messageOf(words: readonly string[], file: string | undefined, deps: Pick<Deps, 'cwd'>): Promise<string> {
  const stdin = words.length === 1 && words[0] === '-';
  if (file !== undefined && words.length > 0) throw new UsageError('send takes the text as words, --file or - (stdin), not more than one');
  if (file !== undefined) {
    const path = file === '-' ? null : resolve(deps.cwd, file);
    if (path === null) return readStdinText();
    return readFile(path, 'utf8').catch((error: unknown) => {
      throw new FleetError(`cannot read ${path}: ${describeFsError(error)}`);
    });
  }
  if (stdin) return readStdinText();
  if (words.length === 0) throw new UsageError('send needs the text: words, --file F, or - to read stdin');
  return words.join(' ');
}

export async function runSend(task: string, words: string[], opts: SendFlags, deps: Deps): Promise<number> {
  const text = await messageOf(words, opts.file, deps);
  const result = await sendText(deps, { task, text, now: opts.now, timeoutMs: timeoutMs(opts.timeout, SEND_TIMEOUT_MS) });
  if (opts.json) deps.stdout.write(`${JSON.stringify(result)}\n`);
  else if (result.turn !== null && result.verdict === 'submitted') deps.stdout.write(`${result.turn}\n`);
  deps.stderr.write(`${sendLine(result)}\n`);
  return sendExitCode(result);
}
