// commander wiring: the command table (register.ts), help, and usage errors mapped to exit 2.
// Loaded on demand by cli.ts, so that `ls` and `ls --json` start without it.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Help } from 'commander';
import type { ProgramShape } from '../completion/candidates.js';
import type { Deps } from '../deps.js';
import { shapeOf } from './completion.js';
import { COMMAND_HELP, examplesBlock, HELP_GROUPS, type HelpGroup } from './help-text.js';
import { registerCommands, type Dispatch } from './register.js';

import { VERSION } from './version.js';

export { VERSION } from './version.js';

/** The guide (docs/ beside package.json: in a clone and in the installed package alike). */
export const GUIDE_DIR: string = fileURLToPath(new URL('../../docs/', import.meta.url));

export function buildProgram(deps: Deps, dispatch: Dispatch): Command {
  const program = new Command('fleetcom')
    .usage('<command> [options]')
    .description(
      'Supervise terminal commands and AI coding agents as windows of one tmux session; ' +
        'a saved, rerun or recovered agent comes back into its own conversation.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    // Taken out of the words by cli.ts before commander runs (remote/host-argv.ts); declared for --help.
    .option('--host <host>', "run a fleet command on that host's fleet, through your ssh (or FLEETCOM_HOST)")
    .enablePositionalOptions()
    .showHelpAfterError(false)
    .exitOverride();
  registerCommands(program, deps, dispatch, runCommandLine);
  teach(program);
  program.commandsGroup('Setup:').helpCommand('help [command]', "show a command's options and examples");
  for (const cmd of [program, ...program.commands]) {
    cmd.exitOverride().configureOutput({
      writeOut: (s) => deps.stdout.write(s),
      writeErr: (s) => deps.stderr.write(s),
      outputError: () => {},
    });
  }
  program.addHelpText(
    'after',
    `
${examplesBlock([
  ['fleetcom up', 'start the fleet in this tmux pane (dashboard)'],
  ['fleetcom run -- claude', 'add a task from any shell'],
  ['fleetcom ls', 'list tasks with their conversation ids'],
  ['fleetcom rerun 3', 'rerun task 3 into the same conversation'],
  ['fleetcom save work', 'save the fleet as a recipe, with resume commands'],
])}

'fleetcom <command> --help' shows a command's options and examples.
Guide: ${join(GUIDE_DIR, 'README.md')}`,
  );
  return program;
}

/**
 * Groups and summarises each visible command for `fleetcom --help` and ends its own help with
 * examples (help-text.ts), listing the groups in HELP_GROUPS order. A visible command missing
 * from the table is listed under plain "Commands:" (and fails the help test).
 */
/** The widest command term of `fleetcom --help` (`recover [options] [snapshot]`): a summary of 48 characters fits beside it. */
const TERM_MAX = 28;

/** A longer term (`send [options] <task> [text...]`) drops its `[options]` in the list (its own help shows them), so the column stays. */
class FleetHelp extends Help {
  override subcommandTerm(cmd: Command): string {
    const term = super.subcommandTerm(cmd);
    return term.length > TERM_MAX ? term.replace(' [options]', '') : term;
  }
}

function teach(program: Command): void {
  program.createHelp = () => Object.assign(new FleetHelp(), program.configureHelp());
  const groupOf = (cmd: Command) => HELP_GROUPS.indexOf(COMMAND_HELP[cmd.name()]?.group ?? ('' as HelpGroup));
  (program.commands as Command[]).sort((a, b) => (groupOf(a) === -1 ? HELP_GROUPS.length : groupOf(a)) - (groupOf(b) === -1 ? HELP_GROUPS.length : groupOf(b)));
  for (const cmd of program.commands) {
    const help = COMMAND_HELP[cmd.name()];
    if (help === undefined) continue;
    cmd.helpGroup(`${help.group}:`).summary(help.summary);
    cmd.addHelpText('after', `\n${examplesBlock(help.examples)}\n\nGuide: ${join(GUIDE_DIR, 'commands.md')}#fleetcom-${cmd.name()}`);
  }
}

/**
 * commander's usage error as one line with its suggestion: "unknown command 'rerurn'
 * (did you mean 'rerun'?)". commander puts the suggestion on a line of its own.
 */
export function usageLine(message: string): string {
  return message
    .replace(/^error: /, '')
    .replace(/\n\(Did you mean (\S+)\?\)$/, " (did you mean '$1'?)");
}

/** Parses and runs one command line: the entry's way for all that commands/hot-path.ts does not run itself. */
export async function runCommandLine(argv: readonly string[], deps: Deps): Promise<number> {
  const run = await parseCommandLine(argv, deps);
  return typeof run === 'number' ? run : run();
}

/** What completion offers, read off the command table (the build puts it in the hot path). */
export function programShape(deps: Deps): ProgramShape {
  return shapeOf(buildProgram(deps, () => {}));
}

/**
 * Parses one command line: the chosen command's run, or the exit code when nothing is left
 * to run (0 after --help or --version, 2 after a usage error, which it reports and follows
 * with the help to read: the failing command's own).
 */
export async function parseCommandLine(argv: readonly string[], deps: Deps): Promise<(() => Promise<number>) | number> {
  let pending: (() => Promise<number>) | null = null;
  const program = buildProgram(deps, (run) => {
    pending = run;
  });
  let failed = program;
  for (const cmd of program.commands) {
    cmd.exitOverride((error) => {
      failed = cmd;
      throw error;
    });
  }
  try {
    await program.parseAsync([...helpOfUnknown(program, argv)], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return 0; // --help, --version
    // `fleetcom` alone: commander has shown the help on stderr; there is nothing more to say.
    if (error.code === 'commander.help') return 2;
    const help = failed === program ? 'fleetcom --help' : `fleetcom ${failed.name()} --help`;
    deps.stderr.write(`fleetcom: ${usageLine(error.message)}\ntry '${help}'\n`);
    return 2;
  }
  return (pending as (() => Promise<number>) | null) ?? 0;
}

/**
 * `fleetcom help rerurn` is parsed as `fleetcom rerurn`: commander's help command would print
 * the whole help for a name it does not know, where the unknown-command error names the
 * nearest command.
 */
function helpOfUnknown(program: Command, argv: readonly string[]): readonly string[] {
  const [first, name, ...rest] = argv;
  if (first !== 'help' || name === undefined || rest.length > 0 || name.startsWith('-')) return argv;
  const known = program.commands.some((cmd) => cmd.name() === name || cmd.aliases().includes(name));
  return known ? argv : [name];
}
