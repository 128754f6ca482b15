// Declares every command's arguments and options; actions only dispatch to run<Name>.
import type { Command } from 'commander';
import type { Dispatch } from '../cli.js';
import type { Deps } from '../deps.js';
import { runExplain } from './explain.js';

export function registerCommands(program: Command, deps: Deps, dispatch: Dispatch): void {
  program
    .command('explain')
    .description('show how a command would be detected, instrumented and resumed (needs no fleet)')
    .argument('<cmd...>', 'the command, after --')
    .option('--json', 'print one JSON object')
    .option('--id <uuid>', 'show the resume command for this conversation id')
    .option('--cwd <dir>', 'the directory the command would run in')
    .passThroughOptions()
    .addHelpText('after', `\nExamples:\n  fleetcom explain -- claude\n  fleetcom explain --json --id 019f5453-de22-7240-b2e5-0d32692aa6d9 -- codex`)
    .action((words: string[], opts) => dispatch(() => runExplain(words, opts, deps)));
}
