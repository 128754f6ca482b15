import { execFileSync } from 'node:child_process';

/** The argv a real `/bin/sh -c` hands to a program for the given shell words. */
export function argvThroughShell(words: string): string[] {
  const out = execFileSync('/bin/sh', ['-c', `printf '%s\\0' ${words}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}
