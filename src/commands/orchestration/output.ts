// `fleetcom output <task> [--turn N] [--json] [--screen]`: a turn's reply, as the agent's
// turn-end signal carried it or as its store holds it for this task's conversation
// (fleet/turns/output.ts); `--screen`, the pane's text, said to be that. stdout is the text.
import type { ReplyOf } from '../../control/protocol.js';
import type { Deps } from '../../deps.js';
import { UsageError } from '../../errors.js';
import { ask } from '../ask.js';

export type OutputResult = ReplyOf<'output'>;

/** What an output asks (the in-process API). */
export interface OutputOptions {
  task: string;
  turn?: number | null;
  screen?: boolean;
}

export function readOutput(deps: Pick<Deps, 'env'>, opts: OutputOptions, socket?: string): Promise<OutputResult> {
  return ask(deps, { op: 'output', task: opts.task, turn: opts.turn ?? null, screen: opts.screen === true }, socket);
}

export async function runOutput(task: string, opts: { turn?: string; json?: boolean; screen?: boolean }, deps: Deps): Promise<number> {
  if (opts.turn !== undefined && !/^[1-9]\d{0,8}$/.test(opts.turn)) throw new UsageError(`--turn ${opts.turn}: expected a turn number (1, 2, …)`);
  if (opts.turn !== undefined && opts.screen) throw new UsageError('--screen shows the pane as it is now: it takes no --turn');
  const result = await readOutput(deps, { task, turn: opts.turn === undefined ? null : Number(opts.turn), screen: opts.screen });
  if (opts.json) {
    deps.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  }
  if (result.source === 'screen') deps.stderr.write(`(task ${result.task}'s screen: ${result.from})\n`);
  deps.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
  return 0;
}
