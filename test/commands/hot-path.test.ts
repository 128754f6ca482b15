// The hot path (commands/hot-path.ts) parses a few command lines without commander: each parse
// it makes must be the one commander makes of the same words, and anything it is not sure of
// must go to commander. Checked against the command table itself, so that an option added
// to register.ts either parses the same here or sends its command lines to commander.
import { CommanderError, type Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { shapeOf } from '../../src/commands/completion.js';
import { HOT, hotRun, parseHot } from '../../src/commands/hot-path.js';
import { buildProgram, programShape } from '../../src/commands/program.js';
import type { Deps } from '../../src/deps.js';

const deps: Deps = { env: {}, cwd: '/', stdout: { write: () => true }, stderr: { write: () => true }, now: () => 0 };

/** What commander hands the command's action for these words, or null when it refuses them. */
async function commanderParse(name: string, words: readonly string[]): Promise<{ args: unknown[]; opts: Record<string, unknown> } | null> {
  const program = buildProgram(deps, () => {});
  const cmd = program.commands.find((c) => c.name() === name) as Command;
  try {
    await program.parseAsync([name, ...words], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return null;
    throw error;
  }
  return { args: cmd.processedArgs, opts: cmd.opts() };
}

const optionsOf = (name: string) => (buildProgram(deps, () => {}).commands.find((c) => c.name() === name) as Command).options;

// Words each hot command is tried with: every option it knows in each of its forms, and the
// words that must go to commander (help, unknown, misspelt, missing values, too many args).
const CORPUS: Record<string, string[][]> = {
  ls: [[], ['--json'], ['--json', '--json'], ['--jsn'], ['--all-hosts'], ['--hosts', 'a'], ['x'], ['-h'], ['--help'], ['--json=1'], ['--'], ['--', 'x']],
  next: [[], ['--from-key'], ['--client', 'c'], ['--client=c'], ['--from', '%3', '--socket', '/s/sock', '--from-key'], ['--client'], ['--from-key=1'], ['x'], ['--clinet', 'c'], ['-h'], ['--client', '--from-key'], ['--client', 'a', '--client', 'b']],
  rerun: [[], ['3'], ['%4'], ['@2'], ['--pane', '%1'], ['--pane=%1'], ['--window', '@2'], ['--pane', '%1', '--socket', '/s/sock', '--from-key'], ['3', '4'], ['--pane'], ['-3'], ['--', '-3'], ['-'],
    ['--from-key', '--pane', '%9'], ['--help'], ['--pane', '-x'], ['--bogus'], ['3', '--', '4']],
  save: [[], ['work'], ['--stdout'], ['--output', 'f.json'], ['--output=f.json', '--force'], ['w', '--all-hosts'], ['--hosts', 'a,b'], ['a', 'b'], ['--output'], ['--stdot'], ['-h'], ['--force=1']],
  output: [['3'], ['%4', '--json'], ['3', '--turn', '2'], ['3', '--turn=2', '--screen'], [], ['3', '4'], ['3', '--turn'], ['3', '--jsn'], ['-h']],
  wait: [['3'], ['1', '2', '3'], ['--any', '1', '2'], ['1', '--all', '--until', 'needs-you', '--turn', '2', '--timeout', '1.5', '--json'], ['--until=exited', '3'], [], ['3', '--until'], ['3', '--bogus'], ['--', '3', '4']],
  __complete: [['--'], ['--', ''], ['--', 'rerun', ''], ['--', 'run', '--', 'claude', ''], ['--', '--he'], ['re'], ['-x'], []],
};

describe('the hot path', () => {
  it.each(Object.keys(HOT))('%s: every option it parses is declared so in register.ts', (name) => {
    const options = optionsOf(name);
    const spec = HOT[name]!;
    for (const [flag, attribute] of Object.entries(spec.values)) {
      const option = options.find((o) => o.long === flag);
      expect(option, `${name} ${flag}`).toBeDefined();
      expect({ value: option!.required, attribute: option!.attributeName(), negate: option!.negate, variadic: option!.variadic, parser: option!.parseArg === undefined }).toEqual({ value: true, attribute, negate: false, variadic: false, parser: true });
    }
    for (const [flag, attribute] of Object.entries(spec.flags)) {
      const option = options.find((o) => o.long === flag);
      expect(option, `${name} ${flag}`).toBeDefined();
      expect({ value: option!.required || option!.optional, attribute: option!.attributeName(), negate: option!.negate, default: option!.defaultValue }).toEqual({ value: false, attribute, negate: false, default: undefined });
    }
  });

  it.each(Object.entries(CORPUS).flatMap(([name, lines]) => lines.map((words) => [name, words] as const)))('%s %j: parsed as commander parses it, or left to commander', async (name, words) => {
    const hot = parseHot(words, HOT[name]!);
    const commander = await commanderParse(name, words);
    if (hot === null) return; // commander's, whatever it makes of them
    expect(commander, 'commander refuses what the hot path runs').not.toBeNull();
    expect(hot.opts).toEqual(commander!.opts);
    // commander passes undefined for an optional argument not given, and every word of a variadic one.
    const variadic = HOT[name]!.args === Infinity;
    expect(variadic ? [hot.args] : hot.args).toEqual(commander!.args.slice(0, variadic ? 1 : hot.args.length));
    if (!variadic) expect(commander!.args.slice(hot.args.length).every((a) => a === undefined)).toBe(true);
  });

  it('leaves help, misspellings and missing values to commander', () => {
    for (const words of [['rerun', '--help'], ['next', '--clinet', 'x'], ['rerun', '--pane'], ['ls', '--all-hosts'], ['--version', 'ls'], ['help'], ['-h'], [], ['up'], ['rerurn']]) {
      expect(hotRun(words, deps), words.join(' ')).toBeNull();
    }
    for (const words of [['--version'], ['-V'], ['ls'], ['ls', '--json'], ['next', '--from-key'], ['rerun', '--pane', '%1'], ['__complete', '--', 'r']]) {
      expect(hotRun(words, deps), words.join(' ')).not.toBeNull();
    }
  });

  it('prints the version as commander does', async () => {
    const out: string[] = [];
    const code = await hotRun(['--version'], { ...deps, stdout: { write: (s: string) => out.push(s) } })!();
    const program = buildProgram(deps, () => {});
    expect({ code, out: out.join('') }).toEqual({ code: 0, out: `${program.version()}\n` });
  });

  it('completes from the same table as commander: every visible command and option', () => {
    // Unbundled, the hot path reads the shape off commander; the build puts this same shape in
    // (integration/cli/completion.test.ts checks the built one against the table).
    const shape = programShape(deps);
    const program = buildProgram(deps, () => {});
    expect(shape).toEqual(shapeOf(program));
    const visible = program.commands.filter((c) => !(c as unknown as { _hidden: boolean })._hidden).map((c) => c.name());
    expect(shape.commands.map((c) => c.name).sort()).toEqual([...visible, 'help'].sort());
  });
});
