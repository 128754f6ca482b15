// Run the BUILT CLI (`npm run build` makes the bin, dist/cli.cjs) as a black box: stdout, stderr and the
// exit code come back separately and a failing exit never throws.
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const cliPath = fileURLToPath(new URL('../../dist/cli.cjs', import.meta.url));

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface CliOptions {
  /** The complete environment (usually sandbox.env plus a few variables); nothing is inherited. */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Text for stdin (default: none, stdin is empty). */
  input?: string;
  /** Kill the CLI after this many ms (default 60 s). */
  timeout?: number;
  /** A command the CLI runs under, e.g. `nsenter -t PID -m --` to run it in a mount namespace. */
  wrap?: readonly string[];
}

export async function runCli(args: readonly string[], opts: CliOptions): Promise<CliResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) env[k] = v;
  const [file, ...argv] = [...(opts.wrap ?? []), process.execPath, cliPath, ...args];
  const result = await execa(file!, argv, {
    env,
    extendEnv: false,
    cwd: opts.cwd,
    reject: false,
    input: opts.input ?? '',
    timeout: opts.timeout ?? 60_000,
    stripFinalNewline: false,
  });
  return {
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    // A CLI killed by a signal (or the timeout) shows as 128 + signal, like a shell would.
    exitCode: result.exitCode ?? 128 + signalNumber(result.signal),
  };
}

function signalNumber(signal: string | undefined): number {
  const numbers: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return signal !== undefined ? (numbers[signal] ?? 0) : 0;
}
