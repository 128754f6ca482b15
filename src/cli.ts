#!/usr/bin/env node
// The entry: picks the command's run (commands/program.ts parses with commander), runs it and
// maps errors to exit codes.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { processDeps, type Deps } from './deps.js';
import { UsageError } from './errors.js';
import { mayNameHost, splitHost } from './remote/host-argv.js';
import { REMOTE_PROTOCOL, REMOTE_PROTOCOL_OPTION } from './remote/protocol-version.js';
import { reporting } from './report.js';

/**
 * `ls` and `ls --json`, which scripts and status bars call most, start without commander:
 * these exact argument lists leave commander nothing to parse (no other word, no option
 * value), and skipping its evaluation and the command table saves ~7 ms of CPU of the 30 ms
 * that a client command may take over `node -e 0` (docs/performance.md).
 */
function plainRun(argv: readonly string[], deps: Deps): (() => Promise<number>) | null {
  const [command, option, ...rest] = argv;
  if (command !== 'ls' || rest.length > 0 || (option !== undefined && option !== '--json')) return null;
  return async () => (await import('./ls-client.js')).runPlainLs(option !== undefined, deps);
}

/**
 * Another fleetcom drives this one over ssh: its command line opens with the remote protocol
 * it speaks (commands/remote.ts); the words after it are a command line like any other, run
 * here and never sent on (FLEETCOM_HOST of this host's environment does not apply).
 */
async function remoteWords(argv: readonly string[]): Promise<string[] | null> {
  if (argv[0] !== REMOTE_PROTOCOL_OPTION) return null;
  if (argv[1] !== String(REMOTE_PROTOCOL)) {
    const { VERSION } = await import('./commands/program.js');
    throw new UsageError(`fleetcom ${VERSION} here speaks remote protocol ${REMOTE_PROTOCOL}, the caller's fleetcom speaks ${argv[1] ?? 'none'}: install the same fleetcom version on both machines`);
  }
  return argv.slice(2);
}

/** Runs one command line; returns the exit code. The only catch in the program but ls-client.ts's. */
export function main(argv: readonly string[], deps: Deps = processDeps()): Promise<number> {
  return reporting(async () => {
    const remote = await remoteWords(argv);
    let words = remote ?? argv;
    if (remote === null && mayNameHost(words, deps.env)) {
      const target = splitHost(words, deps.env.FLEETCOM_HOST);
      if (target.host !== null) return (await import('./commands/remote.js')).runOnHost(target.host, target.argv, deps);
      words = target.argv;
    }
    const run = plainRun(words, deps) ?? (await (await import('./commands/program.js')).parseCommandLine(words, deps));
    return typeof run === 'number' ? run : await run();
  }, deps);
}

function isEntry(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  process.exitCode = await main(process.argv.slice(2));
}
