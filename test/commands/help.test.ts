// What --help teaches: commands grouped one line each, every command's help ending with
// examples and the guide, and usage errors naming the nearest command or option. The parser is
// called in-process; nothing runs.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { COMMAND_HELP, HELP_GROUPS } from '../../src/commands/help-text.js';
import { buildProgram, parseCommandLine, usageLine } from '../../src/commands/program.js';
import type { Deps } from '../../src/deps.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  const deps: Deps = { env: {}, cwd: '/', stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, now: () => 0 };
  return { deps, out: () => out.join(''), err: () => err.join('') };
}

function program(): Command {
  const p = buildProgram(capture().deps, () => {});
  p.configureHelp({ helpWidth: 80 });
  return p;
}

const visible = (p: Command) => p.commands.filter((c) => !(c as unknown as { _hidden: boolean })._hidden);

describe('fleetcom --help', () => {
  it('lists every command under its group, the groups in order, one line each', () => {
    const p = program();
    const help = p.helpInformation();
    const headings = help.split('\n').filter((l) => /^[A-Z]\w*:$/.test(l)).map((l) => l.slice(0, -1));
    expect(headings).toEqual(['Options', ...HELP_GROUPS]);
    for (const cmd of visible(p)) {
      const line = help.split('\n').find((l) => l.startsWith(`  ${cmd.name()} `));
      expect(line, cmd.name()).toBeDefined();
      expect(line, cmd.name()).toContain(COMMAND_HELP[cmd.name()]!.summary);
      expect(line!.length, cmd.name()).toBeLessThanOrEqual(80);
    }
    expect(help.split('\n').every((l) => l.length <= 80)).toBe(true);
  });

  it('has a group, a summary and two or three examples of its own for every visible command', () => {
    for (const cmd of visible(program())) {
      const help = COMMAND_HELP[cmd.name()];
      expect(help, `${cmd.name()} in src/commands/help-text.ts`).toBeDefined();
      expect(help!.summary.length, cmd.name()).toBeLessThanOrEqual(48);
      expect(help!.examples.length, cmd.name()).toBeGreaterThanOrEqual(2);
      expect(help!.examples.length, cmd.name()).toBeLessThanOrEqual(3);
      for (const [line] of help!.examples) expect(line, cmd.name()).toContain(`fleetcom ${cmd.name()}`);
    }
  });

  it('ends each command help with its examples and where the guide says more', () => {
    for (const cmd of visible(program())) {
      const out: string[] = [];
      cmd.configureOutput({ writeOut: (s) => out.push(s) });
      cmd.outputHelp();
      const tail = out.join('').trimEnd().split('\n\n').slice(-2);
      expect(tail[0], cmd.name()).toMatch(/^Examples:\n  \S/);
      expect(tail[1], cmd.name()).toMatch(new RegExp(`^Guide: /.*docs/commands\\.md#fleetcom-${cmd.name()}$`));
      // An 80-column terminal shows it unwrapped (the guide's path is as long as it is).
      expect(out.join('').split('\n').filter((l) => l.length > 80 && !l.startsWith('Guide: ')), cmd.name()).toEqual([]);
    }
  });

  it('names the guide in docs/', () => {
    expect(captureAfterHelp()).toMatch(/\nGuide: \/.*\/docs\/README\.md\n$/);
  });
});

function captureAfterHelp(): string {
  const out: string[] = [];
  const p = program();
  p.configureOutput({ writeOut: (s) => out.push(s) });
  p.outputHelp();
  return out.join('');
}

describe('usage errors', () => {
  it.each([
    ["error: unknown command 'rerurn'\n(Did you mean rerun?)", "unknown command 'rerurn' (did you mean 'rerun'?)"],
    ["error: unknown option '--jsn'\n(Did you mean --json?)", "unknown option '--jsn' (did you mean '--json'?)"],
    ["error: unknown command 'zzz'", "unknown command 'zzz'"],
  ])('puts the suggestion on the error line: %j', (message, line) => {
    expect(usageLine(message)).toBe(line);
  });

  it.each([
    [['rerurn'], "fleetcom: unknown command 'rerurn' (did you mean 'rerun'?)\ntry 'fleetcom --help'\n"],
    [['help', 'sesions'], "fleetcom: unknown command 'sesions' (did you mean 'sessions'?)\ntry 'fleetcom --help'\n"],
    [['ls', '--jsn'], "fleetcom: unknown option '--jsn' (did you mean '--json'?)\ntry 'fleetcom ls --help'\n"],
    [['doctor', '--fx'], "fleetcom: unknown option '--fx' (did you mean '--fix'?)\ntry 'fleetcom doctor --help'\n"],
    [['--verison'], "fleetcom: unknown option '--verison' (did you mean '--version'?)\ntry 'fleetcom --help'\n"],
  ])('suggests the nearest name for %j, exit 2', async (argv, stderr) => {
    const c = capture();
    expect(await parseCommandLine(argv, c.deps)).toBe(2);
    expect({ out: c.out(), err: c.err() }).toEqual({ out: '', err: stderr });
  });

  it('shows the help on stderr for a bare fleetcom, and nothing else', async () => {
    const c = capture();
    expect(await parseCommandLine([], c.deps)).toBe(2);
    expect(c.out()).toBe('');
    expect(c.err()).toContain('Fleet:');
    expect(c.err()).not.toContain('outputHelp');
  });

  it('suggests no hidden command', async () => {
    const c = capture();
    expect(await parseCommandLine(['__complet'], c.deps)).toBe(2);
    expect(c.err()).toBe("fleetcom: unknown command '__complet'\ntry 'fleetcom --help'\n");
  });
});
