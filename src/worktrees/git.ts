// The one place fleetcom runs git (and, through runProgram, the user's gh: gh.ts): argv
// arrays only (never a shell), a deadline after which the program is killed, and a failure
// that names the git subcommand and git's own last words. What git prints is input: callers
// parse it strictly and treat what they cannot read as an error.
import { spawn } from 'node:child_process';
import { FleetError } from '../errors.js';

export class GitError extends FleetError {}

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  /** Kill git after this many ms (default 30 s). */
  deadlineMs?: number;
  /** Variables on top of the process's environment (GIT_INDEX_FILE for a scratch index). */
  env?: Record<string, string>;
  input?: string;
}

export const GIT_DEADLINE_MS = 30_000;

/** The subcommand the words name, for messages (`worktree add`, `status`). */
export function subcommandOf(args: readonly string[]): string {
  const words = args.filter((w, i) => !w.startsWith('-') && args[i - 1] !== '-C' && args[i - 1] !== '-c');
  const [first, second] = words;
  if (first === undefined) return 'git';
  return ['worktree', 'submodule', 'stash'].includes(first) && second !== undefined ? `${first} ${second}` : first;
}

/** Runs git; resolves with its exit code and output (a non-zero code is not thrown: see `git`). */
export function runGit(args: readonly string[], opts: GitOptions = {}): Promise<GitResult> {
  return runProgram('git', args, { ...opts, env: { ...opts.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } }, `git ${subcommandOf(args)}`);
}

/**
 * Runs `file` (git here, the user's gh in gh.ts) with argv words only, in `cwd`, with the
 * process's environment plus `opts.env`; killed at the deadline. `name` is what messages call it.
 */
export function runProgram(file: string, args: readonly string[], opts: GitOptions & { cwd?: string }, name: string): Promise<GitResult> {
  const deadline = opts.deadlineMs ?? GIT_DEADLINE_MS;
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const child = spawn(file, [...args], {
      cwd: opts.cwd,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...opts.env },
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(new GitError(`${name} did not answer within ${Math.round(deadline / 1000)} s and was stopped`)));
    }, deadline);
    const finish = (then: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      then();
    };
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => {});
      child.stdin!.end(opts.input);
    }
    child.on('error', (error) => finish(() => reject(new GitError(
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? `${name}: ${file} is not installed (not found on PATH)` : `${name}: ${error.message}`,
    ))));
    child.on('close', (code) => finish(() => resolve({ code: code ?? 128, stdout, stderr })));
  });
}

/** git's own reason: its last non-empty lines of stderr, `fatal: ` and `error: ` dropped. */
export function gitReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('hint:'));
  return lines.slice(-2).map((l) => l.replace(/^(fatal|error): /, '')).join('; ') || 'no message';
}

/** Runs git and returns its stdout; a non-zero exit throws a GitError naming the subcommand. */
export async function git(args: readonly string[], opts: GitOptions = {}): Promise<string> {
  const result = await runGit(args, opts);
  if (result.code !== 0) throw new GitError(`git ${subcommandOf(args)} failed: ${gitReason(result.stderr)}`);
  return result.stdout;
}

/** git's exit code only (for questions git answers with its code: is-ancestor, show-ref). */
export async function gitSays(args: readonly string[], opts: GitOptions = {}): Promise<boolean> {
  const result = await runGit(args, opts);
  if (result.code === 0) return true;
  if (result.code === 1) return false;
  throw new GitError(`git ${subcommandOf(args)} failed: ${gitReason(result.stderr)}`);
}
