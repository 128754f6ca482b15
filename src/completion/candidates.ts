// What to offer for the word being completed, from the words before it. Pure: the commands'
// shape comes in as plain data (read off commander by commands/completion.ts) and the fleet's
// tasks and the saved sessions through `sources`, asked only when the position needs them.

export interface Candidate {
  value: string;
  description: string;
}

export interface OptionShape {
  long: string;
  short: string | null;
  description: string;
  takesValue: boolean;
  choices: readonly string[] | null;
}

export interface CommandShape {
  name: string;
  description: string;
  /** Visible options, --help included. */
  options: OptionShape[];
  /** Positional arguments by name, in order; a variadic one takes every later word. */
  args: { name: string; variadic: boolean }[];
}

export interface ProgramShape {
  commands: CommandShape[];
  options: OptionShape[];
}

/** A dynamic kind of argument, by the argument's name in the command's declaration. */
export type Dynamic = 'task' | 'session' | 'snapshot' | 'shell';

export type Sources = Record<Dynamic, () => Promise<Candidate[]>>;

const DYNAMIC: Record<string, Dynamic> = { task: 'task', session: 'session', snapshot: 'snapshot', shell: 'shell' };

/** `words`: the words after `fleetcom`, the last one being the (possibly empty) word to complete. */
export async function candidates(program: ProgramShape, words: readonly string[], sources: Sources): Promise<Candidate[]> {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  const at = before.findIndex((w) => !w.startsWith('-'));
  const command = at === -1 ? undefined : program.commands.find((c) => c.name === before[at]);
  if (at === -1) {
    const all = current.startsWith('-') ? optionCandidates(program.options) : program.commands.map((c) => ({ value: c.name, description: c.description }));
    return startingWith(all, current);
  }
  if (command === undefined) return [];
  const rest = before.slice(at + 1);
  if (rest.includes('--')) return []; // a command's own words (run, explain): the shell's default
  const last = rest.at(-1);
  const valueOf = last?.startsWith('-') ? findOption(command.options, last) : undefined;
  if (valueOf?.takesValue) return startingWith((valueOf.choices ?? []).map((c) => ({ value: c, description: '' })), current);
  if (current.startsWith('-')) return startingWith(optionCandidates(command.options), current);
  const arg = command.args[positionals(rest, command.options)] ?? command.args.findLast((a) => a.variadic);
  const dynamic = arg === undefined ? undefined : DYNAMIC[arg.name];
  if (dynamic === undefined) return [];
  return startingWith(await sources[dynamic](), current);
}

function optionCandidates(options: readonly OptionShape[]): Candidate[] {
  return options.map((o) => ({ value: o.long, description: o.description }));
}

function findOption(options: readonly OptionShape[], word: string): OptionShape | undefined {
  return options.find((o) => o.long === word || o.short === word);
}

/** How many positional words `rest` holds (option values are not positional). */
function positionals(rest: readonly string[], options: readonly OptionShape[]): number {
  let count = 0;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (!word.startsWith('-')) count++;
    else if (!word.includes('=') && findOption(options, word)?.takesValue) i++;
  }
  return count;
}

function startingWith(all: readonly Candidate[], prefix: string): Candidate[] {
  const seen = new Set<string>();
  return all.filter((c) => c.value.startsWith(prefix) && !seen.has(c.value) && seen.add(c.value));
}

/** One candidate a line, `value<TAB>description`; tabs and newlines in either become spaces. */
export function formatCandidates(list: readonly Candidate[]): string {
  const flat = (s: string) => s.replace(/[\t\r\n]+/g, ' ');
  return list.map((c) => `${flat(c.value)}\t${flat(c.description)}\n`).join('');
}
