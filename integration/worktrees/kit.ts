// Real git in the sandbox: repositories made in the test's temp dir, git run with the
// sandbox's environment (its own global config file, no system config), and the checks the
// worktree tests share.
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { LsRecord } from '../../src/control/protocol.js';
import type { Fleet } from '../helpers/fleet.js';
import type { Sandbox } from '../helpers/sandbox.js';

const run = promisify(execFile);

/** git in `cwd` with the sandbox's environment; its stdout (throws with stderr on failure). */
export async function git(sb: Sandbox, cwd: string, ...args: string[]): Promise<string> {
  try {
    return (await run('git', args, { cwd, env: sb.env })).stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`git ${args.join(' ')} in ${cwd}: ${e.stderr ?? e.message}`);
  }
}

/**
 * A repository `~/src/<name>` on branch main with one commit (README, .gitignore ignoring
 * .env and *.log); the sandbox's git config gets an identity and lets local submodules clone.
 */
export async function makeRepo(sb: Sandbox, name = 'api'): Promise<string> {
  await writeFile(join(sb.env.HOME!, '.gitconfig'), '[user]\n\tname = Test\n\temail = test@example.com\n[protocol "file"]\n\tallow = always\n[init]\n\tdefaultBranch = main\n');
  const repo = await sb.mkdir('home', 'src', name);
  await git(sb, repo, 'init', '-q', '-b', 'main');
  await writeFile(join(repo, 'README'), 'hello\n');
  await writeFile(join(repo, '.gitignore'), '.env\n*.log\n');
  await git(sb, repo, 'add', '.');
  await git(sb, repo, 'commit', '-q', '-m', 'init');
  return repo;
}

/** `git worktree list --porcelain` paths of a repository. */
export async function worktreePaths(sb: Sandbox, repo: string): Promise<string[]> {
  return (await git(sb, repo, 'worktree', 'list', '--porcelain')).split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice(9));
}

/** Every name in a directory (sorted), [] when it does not exist. */
export async function namesIn(dir: string): Promise<string[]> {
  return existsSync(dir) ? (await readdir(dir)).sort() : [];
}

/** A commit on `branch` of the checkout `dir` adding `file`. */
export async function commitFile(sb: Sandbox, dir: string, file: string, text: string, message = `add ${file}`): Promise<void> {
  await writeFile(join(dir, file), text);
  await git(sb, dir, 'add', file);
  await git(sb, dir, 'commit', '-q', '-m', message);
}

/** `fleetcom run --cwd REPO --worktree BRANCH -- CMD` (default `sleep 600`); the task's record. */
export async function runInWorktree(fleet: Fleet, repo: string, branch: string, ...cmd: string[]): Promise<LsRecord> {
  const r = await fleet.cli('run', '--cwd', repo, '--worktree', branch, '--', ...(cmd.length > 0 ? cmd : ['sleep', '600']));
  expect(r.exitCode, r.stderr).toBe(0);
  return fleet.task(r.stdout.trim());
}

/** The git executable on the sandbox's PATH (for a PATH holding git alone, or a wrapper around it). */
export function gitOnPath(sb: Sandbox): string {
  for (const dir of sb.env.PATH!.split(':')) {
    try {
      accessSync(join(dir, 'git'), constants.X_OK);
      return join(dir, 'git');
    } catch {
      // not here
    }
  }
  throw new Error('no git on PATH');
}
