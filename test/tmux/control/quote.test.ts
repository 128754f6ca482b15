import { describe, expect, it } from 'vitest';
import { commandLine, quoteWord, splitCommands } from '../../../src/tmux/control/quote.js';

describe('quoteWord', () => {
  it.each<[string, string]>([
    ['', "''"],
    ['plain', "'plain'"],
    ['a b', "'a b'"],
    ['x;', "'x;'"],
    [';', "';'"],
    ['$HOME ~ #{pane_id} {x} %if \\', "'$HOME ~ #{pane_id} {x} %if \\'"],
    ["it's", '"it\'s"'],
    ["'$\"\\", '"\'\\$\\"\\\\"'],
    ['a\nb', '"a\\012b"'],
    ['\t\r\x1b\x7f', '"\\011\\015\\033\\177"'],
    ['☃ é', "'☃ é'"],
  ])('%j → %s', (word, quoted) => {
    expect(quoteWord(word)).toBe(quoted);
  });

  it('never leaves a newline, and never an unquoted character, in a token', () => {
    for (let code = 0; code < 0x300; code++) {
      const quoted = quoteWord(`a${String.fromCodePoint(code)}b`);
      expect(quoted).not.toMatch(/\n/);
      expect(quoted[0]).toMatch(/['"]/);
      expect(quoted.at(-1)).toBe(quoted[0]);
    }
  });
});

describe('commandLine', () => {
  it('quotes every argument and separates commands', () => {
    expect(commandLine([['display-message', '-p', 'x;'], ['list-panes', '-a']])).toBe("display-message '-p' 'x;' ; list-panes '-a'");
  });
  it.each([[[]], [[[]]], [[['%if', 'x']]], [[['X=1']]], [[['{']]], [[['Display']]]])('refuses %j', (commands) => {
    expect(() => commandLine(commands as string[][])).toThrow();
  });
});

describe('splitCommands', () => {
  it.each<[string[], string[][]]>([
    [['a', 'b'], [['a', 'b']]],
    [['a', ';', 'b', 'x;'], [['a'], ['b', 'x;']]],
    [[';', 'a', ';', ';'], [['a']]],
  ])('%j', (args, commands) => {
    expect(splitCommands(args)).toEqual(commands);
  });
});
