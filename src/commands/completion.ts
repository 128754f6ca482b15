// `fleetcom completion <shell>` prints a script to source; `fleetcom __complete <words…>` is
// what that script runs at each Tab. __complete must answer at once: without a fleet the task
// list is empty (no socket, nothing to wait for), a stopped supervisor is seen before anything
// is sent (control/client.ts), and one silent for FLEET_WAIT_MS is skipped. Its `ls` asks for the
// supervisor's state as it is (no tmux call first, even while a long load runs), so a live fleet
// answers well within it.
import type { Command, Help, Option } from 'commander';
import { candidates, formatCandidates, type Candidate, type CommandShape, type OptionShape, type ProgramShape, type Sources } from '../completion/candidates.js';
import { completionScript, SHELLS, type Shell } from '../completion/scripts.js';
import type { Deps } from '../deps.js';
import { UsageError } from '../errors.js';
import { ask } from './ask.js';

const FLEET_WAIT_MS = 500;

export async function runCompletion(shell: string, deps: Deps): Promise<number> {
  if (!(SHELLS as readonly string[]).includes(shell)) throw new UsageError(`completion: no script for '${shell}' (bash, zsh or fish)`);
  deps.stdout.write(completionScript(shell as Shell));
  return 0;
}

export function runComplete(words: readonly string[], program: Command, deps: Deps): Promise<number> {
  return runCompleteFrom(words, shapeOf(program), deps);
}

/** The answer from the command table's shape: commander's, or the one built in (commands/hot-path.ts). */
export async function runCompleteFrom(words: readonly string[], shape: ProgramShape, deps: Deps): Promise<number> {
  const found = await candidates(shape, words.length === 0 ? [''] : words, sources(deps));
  deps.stdout.write(formatCandidates(found));
  return 0;
}

function sources(deps: Deps): Sources {
  // The session store (and zod with it) loads only when a session name is being completed.
  const listSessions = async () => {
    const [{ listSessions: list }, { sessionDirOf }] = await Promise.all([import('../sessions/index.js'), import('./fleet/recipe-io.js')]);
    return list(sessionDirOf(deps));
  };
  return {
    task: () => fleetTasks(deps),
    session: async () => (await listSessions()).saved.map((s) => ({
      value: s.name,
      description: s.tasks === null ? 'unreadable' : `${s.tasks} command(s)`,
    })),
    snapshot: async () => (await listSessions()).recovery.map((r) => ({
      value: r.file.replace(/^.*\//, '').replace(/\.json$/, ''),
      description: `${r.label}${r.closed ? '' : ', not closed'}`,
    })),
    shell: async () => SHELLS.map((s) => ({ value: s, description: '' })),
  };
}

/**
 * The running fleet's tasks, labels as descriptions; none when there is no fleet or it is slow.
 * From the supervisor's state as it is: the ids are the same, and a state at most one
 * reconciliation old is good enough for a hint, where the tmux call before it is ~10 % of a Tab.
 */
async function fleetTasks(deps: Deps): Promise<Candidate[]> {
  try {
    const tasks = await ask(deps, { op: 'ls', fromState: true }, undefined, { silenceMs: FLEET_WAIT_MS });
    return tasks.map((t) => ({ value: String(t.id), description: `${t.name ?? t.command} (${t.state})` }));
  } catch {
    return [];
  }
}

/** What commander's help shows: visible commands and options, --help and --version included. */
export function shapeOf(program: Command): ProgramShape {
  const help = program.createHelp();
  return { commands: help.visibleCommands(program).map((c) => commandShape(c, help)), options: help.visibleOptions(program).map(optionShape) };
}

function commandShape(cmd: Command, help: Help): CommandShape {
  return {
    name: cmd.name(),
    description: cmd.description(),
    options: help.visibleOptions(cmd).map(optionShape),
    args: cmd.registeredArguments.map((a) => ({ name: a.name(), variadic: a.variadic })),
  };
}

function optionShape(option: Option): OptionShape {
  return {
    long: option.long ?? option.flags,
    short: option.short ?? null,
    description: option.description,
    takesValue: option.required || option.optional,
    choices: option.argChoices ?? null,
  };
}
