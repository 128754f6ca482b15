import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { joinCommandWords } from '../../src/commands/command-words.js';

const SHELLS = ['/bin/sh', '/bin/bash', '/bin/dash', '/bin/zsh', '/bin/ksh', '/usr/bin/fish'].filter((s) => existsSync(s));

describe('joining the words after --', () => {
  it('takes one word verbatim', () => {
    expect(joinCommandWords(["claude --resume 'x'"])).toBe("claude --resume 'x'");
  });

  it('quotes only the words that need it', () => {
    expect(joinCommandWords(['echo', 'a;b', 'plain', '--flag=1', '~/x', '=cmd', ''])).toBe("echo 'a;b' plain --flag=1 '~/x' '=cmd' ''");
  });

  it('quotes a tilde anywhere in a word', () => {
    expect(joinCommandWords(['echo', 'a=~/x', 'b:~/y', 'c~'])).toBe("echo 'a=~/x' 'b:~/y' 'c~'");
  });

  it('quotes a first word that the shell would take as an assignment or a reserved word', () => {
    expect(joinCommandWords(['A=1', 'env'])).toBe("'A=1' env");
    expect(joinCommandWords(['time', 'ls'])).toBe("'time' ls");
    expect(joinCommandWords(['ls', 'time', 'A=1'])).toBe('ls time A=1');
  });

  it.each(SHELLS)('round-trips every word through %s', (shell) => {
    const words = ['printf', '%s|', 'a b', "it's", '$HOME', 'back\\slash', 'new\nline', '*', '~', 'ünï', 'a=~/x', 'b:~/y', 'x=~', '%self', '{a,b}'];
    const out = execFileSync(shell, ['-c', joinCommandWords(words)], { env: { HOME: '/nonexistent-home', PATH: '/usr/bin:/bin' } }).toString();
    expect(out).toBe(words.slice(2).map((w) => `${w}|`).join(''));
  });
});
