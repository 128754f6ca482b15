// commander wiring: the command table (register.ts), help, and usage errors mapped to exit 2.
// Loaded on demand by cli.ts, so that `ls` and `ls --json` start without it.
import { Command, CommanderError } from 'commander';
import type { Deps } from '../deps.js';
import { registerCommands, type Dispatch } from './register.js';

import { VERSION } from './version.js';

export { VERSION } from './version.js';

export function buildProgram(deps: Deps, dispatch: Dispatch): Command {
  const program = new Command('fleetcom')
    .description('Supervise a fleet of terminal commands and AI coding agents as windows of one tmux session.')
    .version(VERSION, '-V, --version', 'print the version')
    .enablePositionalOptions()
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => deps.stdout.write(s),
      writeErr: (s) => deps.stderr.write(s),
      outputError: () => {},
    });
  registerCommands(program, deps, dispatch);
  for (const cmd of program.commands) {
    cmd.exitOverride().configureOutput({
      writeOut: (s) => deps.stdout.write(s),
      writeErr: (s) => deps.stderr.write(s),
      outputError: () => {},
    });
  }
  program.addHelpText(
    'after',
    `
Examples:
  fleetcom up                         start the fleet in this tmux pane (dashboard)
  fleetcom run -- claude              add a task from any shell
  fleetcom ls                         list tasks with their conversation ids
  fleetcom rerun 3                    rerun task 3 into the same conversation
  fleetcom save work                  save the fleet as a recipe, with resume commands
  fleetcom explain --json -- codex    how a command would be instrumented`,
  );
  return program;
}

/**
 * Parses one command line: the chosen command's run, or the exit code when nothing is left
 * to run (0 after --help or --version, 2 after a usage error, which it reports).
 */
export async function parseCommandLine(argv: readonly string[], deps: Deps): Promise<(() => Promise<number>) | number> {
  let pending: (() => Promise<number>) | null = null;
  const program = buildProgram(deps, (run) => {
    pending = run;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return 0; // --help, --version
    deps.stderr.write(`fleetcom: ${error.message.replace(/^error: /, '')}\ntry 'fleetcom --help'\n`);
    return 2;
  }
  return (pending as (() => Promise<number>) | null) ?? 0;
}
