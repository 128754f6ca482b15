#!/usr/bin/env node
// commander wiring only: parse, dispatch to src/commands, map errors to exit codes.
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { processDeps, type Deps } from './deps.js';
import { errorMessage, FleetError, ReportedError } from './errors.js';
import { registerCommands, type Dispatch } from './commands/register.js';

export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

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

/** Runs one command line; returns the exit code. The only catch in the program. */
export async function main(argv: readonly string[], deps: Deps = processDeps()): Promise<number> {
  let pending: (() => Promise<number>) | null = null;
  const program = buildProgram(deps, (run) => {
    pending = run;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    const run = pending as (() => Promise<number>) | null;
    return run ? await run() : 0;
  } catch (error) {
    return report(error, deps);
  }
}

function report(error: unknown, deps: Deps): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return 0; // --help, --version
    deps.stderr.write(`fleetcom: ${error.message.replace(/^error: /, '')}\ntry 'fleetcom --help'\n`);
    return 2;
  }
  if (deps.env.FLEETCOM_DEBUG === '1' && error instanceof Error) deps.stderr.write(`${error.stack}\n`);
  if (error instanceof ReportedError) return error.exitCode;
  // Every error fleetcom raises on purpose is a FleetError with its exit code; anything else
  // is a failure (1).
  const code = error instanceof FleetError ? error.exitCode : 1;
  deps.stderr.write(`fleetcom: ${errorMessage(error)}\n`);
  if (code === 2) deps.stderr.write(`try 'fleetcom --help'\n`);
  return code;
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
