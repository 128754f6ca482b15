// The command lines that scripts, tmux keys and the shell's Tab run most, parsed without
// commander: `--version`, `ls [--json]`, `next …`, `rerun …`, `save …`, `output …`, `wait …` and the completion
// question (`__complete -- words…`). Each is parsed here only when every word is one it knows (its
// options as register.ts declares them, the arguments it takes, `--`); anything else (help, an
// unknown or misspelt option, a missing value, a new option added to register.ts but not
// here) returns null and goes to the commander program, which parses or refuses it as before.
// test/commands/hot-path.test.ts checks each parse against commander's on the same words.
//
// Adding a command to the hot path: a spec below and its run in HOT; nothing else changes.
// A command not here simply runs through commander.
import type { Deps } from '../deps.js';
import type { ProgramShape } from '../completion/candidates.js';

/** A command's words as register.ts declares them: option → commander's attribute name. */
export interface HotSpec {
  /** Options that take a value (`--pane <pane>`, also as `--pane=%1`). */
  values: Readonly<Record<string, string>>;
  /** Boolean options. */
  flags: Readonly<Record<string, string>>;
  /** How many positional arguments it takes at most. */
  args: number;
  /** How many it needs (default 0): fewer go to commander, which says what is missing. */
  minArgs?: number;
}

export interface HotParse {
  args: string[];
  opts: Record<string, string | true>;
}

/**
 * The command table's shape as JSON, put here by the build (scripts/bundle.mjs); unbundled,
 * commander gives it. A string, parsed only when the Tab asks: a start that does not complete
 * does not build it.
 */
declare const BUILT_PROGRAM_SHAPE: string | undefined;

type HotCommand = HotSpec & { run: (parsed: HotParse, deps: Deps) => Promise<number> };

const tasks = () => import('./tasks/tasks.js');

export const HOT: Readonly<Record<string, HotCommand>> = {
  ls: {
    values: {}, flags: { '--json': 'json' }, args: 0,
    run: async ({ opts }, deps) => (await tasks()).runLs(opts, deps),
  },
  next: {
    values: { '--client': 'client', '--from': 'from', '--socket': 'socket' }, flags: { '--from-key': 'fromKey' }, args: 0,
    run: async ({ opts }, deps) => (await tasks()).runNext(opts, deps),
  },
  rerun: {
    values: { '--pane': 'pane', '--window': 'window', '--socket': 'socket' }, flags: { '--from-key': 'fromKey' }, args: 1,
    run: async ({ args, opts }, deps) => (await tasks()).runRerun(args[0], opts, deps),
  },
  save: {
    values: { '--output': 'output', '--hosts': 'hosts' }, flags: { '--stdout': 'stdout', '--force': 'force', '--all-hosts': 'allHosts' }, args: 1,
    run: async ({ args, opts }, deps) => (opts.allHosts || opts.hosts !== undefined
      ? (await import('./hosts/hosts-save.js')).runHostsSave(args[0], opts, deps)
      : (await import('./fleet/save-client.js')).runSaveApart(args[0], opts, deps)),
  },
  // A script's loop calls these as often as ls (fleet/turns: the wait itself is the supervisor's).
  output: {
    values: { '--turn': 'turn' }, flags: { '--json': 'json', '--screen': 'screen' }, args: 1, minArgs: 1,
    run: async ({ args, opts }, deps) => (await import('./orchestration/output.js')).runOutput(args[0] as string, opts, deps),
  },
  wait: {
    values: { '--until': 'until', '--turn': 'turn', '--timeout': 'timeout' }, flags: { '--any': 'any', '--all': 'all', '--json': 'json' }, args: Infinity, minArgs: 1,
    run: async ({ args, opts }, deps) => (await import('./orchestration/wait.js')).runWait(args, opts, deps),
  },
  __complete: {
    values: {}, flags: {}, args: Infinity,
    run: async ({ args }, deps) => (await import('./completion.js')).runCompleteFrom(args, await programShape(deps), deps),
  },
};

/** The run of a command line the hot path understands whole, or null (commander's then). */
export function hotRun(words: readonly string[], deps: Deps): (() => Promise<number>) | null {
  const [name, ...rest] = words;
  if (words.length === 1 && (name === '--version' || name === '-V')) {
    return async () => {
      deps.stdout.write(`${(await import('./version.js')).VERSION}\n`);
      return 0;
    };
  }
  const command = name === undefined || !Object.hasOwn(HOT, name) ? undefined : HOT[name];
  const parsed = command === undefined ? null : parseHot(rest, command);
  return command === undefined || parsed === null ? null : () => command.run(parsed, deps);
}

/**
 * The words after the command as commander would give them to its action, or null when a
 * word is not one the spec knows. As commander: a value option takes the next word whatever
 * it is, the last of a repeated option wins, and every word after `--` is an argument.
 */
export function parseHot(words: readonly string[], spec: HotSpec): HotParse | null {
  const args: string[] = [];
  const opts: Record<string, string | true> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (word === '--') {
      args.push(...words.slice(i + 1));
      break;
    }
    if (word.length < 2 || !word.startsWith('-')) {
      args.push(word);
      continue;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const flag = eq > 0 ? word.slice(0, eq) : word;
    const valueOf = Object.hasOwn(spec.values, flag) ? spec.values[flag] : undefined;
    if (valueOf !== undefined) {
      const value = eq > 0 ? word.slice(eq + 1) : words[++i];
      if (value === undefined) return null;
      opts[valueOf] = value;
    } else if (eq < 0 && Object.hasOwn(spec.flags, flag)) {
      opts[spec.flags[flag] as string] = true;
    } else {
      return null;
    }
  }
  return args.length <= spec.args && args.length >= (spec.minArgs ?? 0) ? { args, opts } : null;
}

/** The visible commands and options, for completion: built in, or read off commander. */
async function programShape(deps: Deps): Promise<ProgramShape> {
  if (typeof BUILT_PROGRAM_SHAPE !== 'undefined') return JSON.parse(BUILT_PROGRAM_SHAPE) as ProgramShape;
  return (await import('./program.js')).programShape(deps);
}
