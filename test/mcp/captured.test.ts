// One command line in this process: its output captured, its exit code, the call's deadline.
import { describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { runCaptured, type CommandLine } from '../../src/mcp/captured.js';

const base = { env: { HOME: '/h' }, cwd: '/c', now: Date.now };

describe('runCaptured', () => {
  it('captures stdout and stderr apart, with the exit code, and passes env and cwd on', async () => {
    const line: CommandLine = async (argv, deps) => {
      deps.stdout.write(`${argv.join(' ')} in ${deps.cwd} for ${deps.env.HOME}\n`);
      deps.stderr.write('a note\n');
      return 4;
    };
    expect(await runCaptured(line, ['ls', '--json'], base, 1_000)).toMatchObject({ exitCode: 4, stdout: 'ls --json in /c for /h\n', stderr: 'a note\n' });
  });

  it('turns a throw into exit 1 and its message', async () => {
    const line: CommandLine = async () => {
      throw new Error('boom');
    };
    expect(await runCaptured(line, ['x'], base, 1_000)).toMatchObject({ exitCode: 1, stderr: 'fleetcom: boom\n' });
  });

  it('answers null at the deadline and drops what the command prints after it', async () => {
    let late: Deps | undefined;
    let finish: (code: number) => void = () => {};
    const line: CommandLine = (_argv, deps) => {
      late = deps;
      deps.stdout.write('early\n');
      return new Promise((resolve) => {
        finish = resolve;
      });
    };
    const started = Date.now();
    const result = await runCaptured(line, ['wait'], base, 200);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ exitCode: null, stdout: 'early\n' });
    late?.stdout.write('later\n');
    finish(0);
    expect(result.stdout).toBe('early\n');
  });
});
