// The tmux server of the running fleet, for the terminal transport: its socket as the
// supervisor names it (`status`), asked again when the fleet changes (a new `up` after a down).
import { callerEnv, type Deps } from '../../deps.js';
import { TmuxRunner, type RunOptions, type TmuxRun } from '../../tmux/runner.js';
import { ask } from '../ask.js';

export function fleetTmux(deps: Deps): TmuxRun {
  let runner: Promise<TmuxRunner> | null = null;
  const current = () => {
    runner ??= ask(deps, { op: 'status' }).then((s) => new TmuxRunner({ socketPath: s.tmuxSocket ?? undefined, env: callerEnv(deps) }));
    runner.catch(() => {
      runner = null;
    });
    return runner;
  };
  const again = <T>(call: (r: TmuxRunner) => Promise<T>) => current().then(call).catch(async (error: unknown) => {
    // The fleet may have been restarted on another server: ask once more before failing.
    runner = null;
    const fresh = await current().catch(() => {
      throw error;
    });
    return call(fresh);
  });
  return {
    run: (args: readonly string[], opts?: RunOptions) => again((r) => r.run(args, opts)),
    runSequence: (commands: readonly (readonly string[])[], opts?: RunOptions) => again((r) => r.runSequence(commands, opts)),
  };
}
