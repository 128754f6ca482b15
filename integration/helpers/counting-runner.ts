// A tmux runner that records each client it starts (the first word of each command in it),
// for tests of how many tmux calls an operation costs.
import type { TmuxRun } from '../../src/tmux/runner.js';

export function countingRunner(runner: TmuxRun): TmuxRun & { calls: string[] } {
  const counted = {
    calls: [] as string[],
    run: (args: readonly string[]) => (counted.calls.push(args[0] ?? ''), runner.run(args)),
    runSequence: (commands: readonly (readonly string[])[]) => (counted.calls.push(commands.map((c) => c[0]).join(';')), runner.runSequence(commands)),
  };
  return counted;
}
