// Several reads in ONE tmux call. A tmux client costs ~3.5 ms here however little it asks, and
// a supervisor's start asked a dozen separate questions (its session, the panes, the window
// records, the keys' previous bindings, its window's name): as one sequence they cost one client.
// Each command's output is followed by a marker line (`display-message -p <marker>`, a fresh
// separator, so no value set before the call can contain it) and cut there.
import { freshSeparator } from './format.js';
import type { TmuxRun } from './runner.js';

/** A tmux command that never fails and the parser of what it prints. */
export interface Query<T> {
  command: readonly string[];
  parse(output: string): T;
}

type Results<Q extends readonly Query<unknown>[]> = { [K in keyof Q]: Q[K] extends Query<infer T> ? T : never };

/**
 * Runs every query in one invocation, in order, and parses each one's own output. Only for
 * commands that cannot fail: tmux stops a sequence at its first failing command (the call then
 * rejects with that TmuxError).
 */
export async function runQueries<const Q extends readonly Query<unknown>[]>(tmux: TmuxRun, queries: Q): Promise<Results<Q>> {
  const marker = freshSeparator();
  const out = await tmux.runSequence(queries.flatMap((q) => [q.command, ['display-message', '-p', marker]]));
  // The runner drops the output's last newline: the last marker's.
  const pieces = `${out}\n`.split(`${marker}\n`);
  if (pieces.length !== queries.length + 1 || pieces.at(-1) !== '') {
    throw new Error(`tmux answered ${pieces.length - 1} of ${queries.length} queries (${queries.map((q) => q.command[0]).join(', ')})`);
  }
  return queries.map((q, i) => q.parse(pieces[i] ?? '')) as Results<Q>;
}

/** The output as it is, one trailing newline dropped (a display-message or show-options -v value). */
export function textQuery(command: readonly string[]): Query<string> {
  return { command, parse: (out) => out.replace(/\n$/, '') };
}
