// The one place fleetcom runs git: argv arrays only (never a shell), a deadline after which
// git is killed, and a failure that names the git subcommand and git's own last words. What
// git prints is input: callers parse it strictly and treat what they cannot read as an error.
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
  const name = subcommandOf(args);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const child = spawn('git', [...args], {
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...opts.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(() => reject(new GitError(`git ${name} did not answer within ${Math.round((opts.deadlineMs ?? GIT_DEADLINE_MS) / 1000)} s and was stopped`)));
    }, opts.deadlineMs ?? GIT_DEADLINE_MS);
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
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? `git ${name}: git is not installed (not found on PATH)` : `git ${name}: ${error.message}`,
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
