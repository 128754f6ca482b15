import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { joinCommandWords } from '../src/command-words.js';

describe('joining the words after --', () => {
  it('takes one word verbatim', () => {
    expect(joinCommandWords(["claude --resume 'x'"])).toBe("claude --resume 'x'");
  });

  it('quotes only the words that need it', () => {
    expect(joinCommandWords(['echo', 'a;b', 'plain', '--flag=1', '~/x', '=cmd', ''])).toBe("echo 'a;b' plain --flag=1 '~/x' '=cmd' ''");
  });

  it.each([
    [['printf', '%s|', 'a b', "it's", '$HOME', 'back\\slash', 'new\nline', '*', '~', 'ünï']],
  ])('round-trips through a real shell: %j', (words) => {
    const out = execFileSync('/bin/sh', ['-c', joinCommandWords(words)]).toString();
    expect(out).toBe(words.slice(2).map((w) => `${w}|`).join(''));
  });
});
