import { describe, expect, it } from 'vitest';
import { mayNameHost, splitHost } from '../../src/remote/host-argv.js';

describe('the host of a command line', () => {
  it.each([
    ['before the command', ['--host', 'gpu', 'ls', '--json'], 'gpu', ['ls', '--json']],
    ['among the options', ['ls', '--json', '--host', 'gpu'], 'gpu', ['ls', '--json']],
    ['as --host=H', ['rerun', '--host=me@box', '3'], 'me@box', ['rerun', '3']],
    ['before the command of run', ['run', '--host', 'gpu', '--cwd', 'src', '--', 'claude'], 'gpu', ['run', '--cwd', 'src', '--', 'claude']],
    ["not inside run's command", ['run', 'sleep', '--host', 'x'], null, ['run', 'sleep', '--host', 'x']],
    ['not as the value of --cwd', ['run', '--cwd', '--host', 'sleep'], null, ['run', '--cwd', '--host', 'sleep']],
    ['not after --', ['run', '--', 'ssh', '--host', 'x'], null, ['run', '--', 'ssh', '--host', 'x']],
    ['not --hosts or --all-hosts', ['ls', '--all-hosts', '--hosts', 'a,b'], null, ['ls', '--all-hosts', '--hosts', 'a,b']],
  ])('is found %s', (_label, argv, host, rest) => {
    expect(splitHost(argv, undefined)).toEqual({ host, argv: rest });
  });

  it('takes FLEETCOM_HOST for the commands that act on a fleet, and not for the others', () => {
    expect(splitHost(['ls'], 'gpu')).toEqual({ host: 'gpu', argv: ['ls'] });
    expect(splitHost(['config'], 'gpu')).toEqual({ host: null, argv: ['config'] });
    expect(splitHost(['--version'], 'gpu')).toEqual({ host: null, argv: ['--version'] });
    expect(splitHost(['ls', '--host', 'cpu'], 'gpu')).toEqual({ host: 'cpu', argv: ['ls'] });
  });

  it('refuses --host for a command that runs here, a missing or repeated host, and a hostile one', () => {
    expect(() => splitHost(['--host', 'gpu', 'explain', '--', 'claude'], undefined)).toThrowError(/explain runs on this machine/);
    expect(() => splitHost(['ls', '--host'], undefined)).toThrowError(/--host needs a host name/);
    expect(() => splitHost(['--host', 'a', 'ls', '--host', 'b'], undefined)).toThrowError(/twice/);
    expect(() => splitHost(['--host', '-oProxyCommand=x', 'ls'], undefined)).toThrowError(/refused/);
    expect(() => splitHost(['ls'], '-F/tmp/x')).toThrowError(/FLEETCOM_HOST "-F\/tmp\/x": refused/);
  });

  it('costs the local path nothing but a scan when no host can be named', () => {
    expect(mayNameHost(['ls', '--json'], {})).toBe(false);
    expect(mayNameHost(['ls', '--json'], { FLEETCOM_HOST: '' })).toBe(false);
    expect(mayNameHost(['ls', '--host=x'], {})).toBe(true);
    expect(mayNameHost(['ls'], { FLEETCOM_HOST: 'x' })).toBe(true);
  });
});
