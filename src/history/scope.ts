import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

// `history --cwd DIR`: that directory's conversations and, in a git repository, those of the
// same directory in each of its worktrees (`git worktree list --porcelain`). git's output is
// input: only absolute paths without control characters count; a git that fails, is missing
// or takes too long leaves the directory alone.

const GIT_TIMEOUT_MS = 5000;
const CONTROL = /\p{Cc}/u;

/** The worktree roots `git worktree list --porcelain` names (`worktree <path>` lines). */
export function parseWorktrees(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith('worktree ')) return [];
    const dir = line.slice('worktree '.length);
    return dir.startsWith('/') && !CONTROL.test(dir) ? [path.normalize(dir)] : [];
  });
}

function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env, timeout: GIT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => resolve(error ? null : stdout));
  });
}

function realOrSelf(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

/** `dir` (as given and resolved), and the same place in each worktree of its repository. */
export async function scopeDirs(dir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const dirs = new Set([dir, realOrSelf(dir)]);
  const top = await git(dir, ['rev-parse', '--show-toplevel'], env);
  const list = top === null ? null : await git(dir, ['worktree', 'list', '--porcelain'], env);
  if (top !== null && list !== null) {
    const root = top.trim();
    const inside = path.relative(root, realOrSelf(dir));
    const within = root.startsWith('/') && !inside.startsWith('..') && !path.isAbsolute(inside);
    for (const worktree of parseWorktrees(list)) dirs.add(within ? path.join(worktree, inside) : worktree);
  }
  return [...dirs];
}
