// The command line's way, as one file of the build (scripts/bundle.mjs: dist/chunks/client.js,
// without splitting): the commands scripts, keys and the Tab call most (commands/hot-path.ts)
// run from it alone; every other command line, and any it does not understand, goes to the
// commander program (commands/program.ts), which the build makes files of its own. Errors of
// any of them are reported here (errors.ts: isFleetError).
import { processDeps, type Deps } from './deps.js';
import { UsageError } from './errors.js';
import { hotRun } from './commands/hot-path.js';
import { mayNameHost, splitHost } from './remote/host-argv.js';
import { REMOTE_PROTOCOL, REMOTE_PROTOCOL_OPTION } from './remote/protocol-version.js';
import { reporting } from './report.js';

/**
 * Another fleetcom drives this one over ssh: its command line opens with the remote protocol
 * it speaks (commands/hosts/remote.ts); the words after it are a command line like any other, run
 * here and never sent on (FLEETCOM_HOST of this host's environment does not apply).
 */
async function remoteWords(argv: readonly string[]): Promise<string[] | null> {
  if (argv[0] !== REMOTE_PROTOCOL_OPTION) return null;
  if (argv[1] !== String(REMOTE_PROTOCOL)) {
    const { VERSION } = await import('./commands/version.js');
    throw new UsageError(`fleetcom ${VERSION} here speaks remote protocol ${REMOTE_PROTOCOL}, the caller's fleetcom speaks ${argv[1] ?? 'none'}: install the same fleetcom version on both machines`);
  }
  return argv.slice(2);
}

/** Runs one command line; returns the exit code. */
export function main(argv: readonly string[], deps: Deps = processDeps()): Promise<number> {
  return reporting(async () => {
    const remote = await remoteWords(argv);
    let words = remote ?? argv;
    if (remote === null && mayNameHost(words, deps.env)) {
      const target = splitHost(words, deps.env.FLEETCOM_HOST);
      if (target.host !== null) return (await import('./commands/hosts/remote.js')).runOnHost(target.host, target.argv, deps);
      words = target.argv;
    }
    const hot = hotRun(words, deps);
    return hot !== null ? await hot() : await (await import('./commands/program.js')).runCommandLine(words, deps);
  }, deps);
}
