import { describe, expect, it } from 'vitest';
import { checkHost, hostProblem, parseHostList } from '../../src/remote/host-name.js';

describe('host names', () => {
  it.each([
    ['an alias', 'gpu'],
    ['user@host', 'me@build.example.com'],
    ['an IPv6 address', '::1'],
    ['an IPv4 address', '10.0.0.7'],
    ['a name with unicode', 'dév-box'],
  ])('accepts %s', (_label, host) => {
    expect(hostProblem(host)).toBeNull();
    expect(checkHost(host)).toBe(host);
  });

  it.each([
    ['an option', '-oProxyCommand=touch /tmp/pwned'],
    ['a lone dash', '-'],
    ['an empty name', ''],
    ['a space', 'gpu box'],
    ['a tab', 'gpu\tbox'],
    ['a newline', 'gpu\nProxyCommand x'],
    ['an escape', 'gpu\u001b[31m'],
    ['a DEL', 'gpu\u007f'],
    ['a no-break space', 'gpu\u00a0box'],
    ['a very long name', 'h'.repeat(256)],
  ])('refuses %s, naming the flag and the reason', (_label, host) => {
    expect(hostProblem(host)).not.toBeNull();
    expect(() => checkHost(host)).toThrowError(/^--host .*: refused, it /);
  });

  it('reads a comma list, trimming and dropping repeats and empty items', () => {
    expect(parseHostList(' a, b,,a ,c@d ')).toEqual(['a', 'b', 'c@d']);
    expect(() => parseHostList('a,-b')).toThrowError(/--hosts "-b": refused/);
  });
});
