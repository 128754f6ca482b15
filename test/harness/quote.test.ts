import { describe, expect, it } from 'vitest';
import { quoteShell, tomlBasicString } from '../../src/harness/index.js';
import { ID } from './fixtures.js';
import { argvThroughShell } from './shell.js';

// Quoting is checked against a real /bin/sh: what the program receives must be the value.

const awkward = [
  ['a plain word', 'plain'],
  ['the empty string', ''],
  ['spaces', '/tmp/my dir/with  spaces'],
  ['single quotes', "it's 'quoted'"],
  ['only a single quote', "'"],
  ['double quotes', 'say "hi"'],
  ['a dollar sign and expansions', '$HOME ${PATH} $(id) `id`'],
  ['backslashes', 'a\\b\\\\c\\'],
  ['newlines', 'line one\nline two\n'],
  ['a carriage return and tab', 'a\rb\tc'],
  ['unicode', 'ünïcödé 日本語 🚀'],
  ['globs and shell operators', '* ? [a] {a,b} ; | & < > # ~ !'],
  ['an injection attempt', "'; touch /tmp/pwned; echo '"],
  ['an id', ID],
  ['a long path', `/x/${'long path/'.repeat(500)}`],
] as const;

describe('shell quoting through a real /bin/sh', () => {
  it.each(awkward)('passes %s through as one argument', (_label, value) => {
    expect(argvThroughShell(quoteShell(value))).toEqual([value]);
  });

  it('keeps several quoted words apart', () => {
    const values = awkward.map(([, value]) => value);
    expect(argvThroughShell(values.map(quoteShell).join(' '))).toEqual(values);
  });

  it('writes a quote as close, escaped quote, reopen', () => {
    expect(quoteShell("a'b")).toBe("'a'\\''b'");
    expect(quoteShell(ID)).toBe(`'${ID}'`);
  });
});

describe('TOML basic strings', () => {
  it.each([
    ['/ns/codex-notify.sh', '"/ns/codex-notify.sh"'],
    ['a\\b', '"a\\\\b"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['a\nb', '"a\\u000Ab"'],
    ['\u0000\u001f\u007f', '"\\u0000\\u001F\\u007F"'],
    ['tab\there', '"tab\\u0009here"'],
    ["it's ünï 🚀", '"it\'s ünï 🚀"'],
  ])('writes %j as %s', (value, toml) => {
    expect(tomlBasicString(value)).toBe(toml);
  });
});
