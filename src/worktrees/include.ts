// `.worktreeinclude` at the repository root (gitignore syntax): the files a new checkout lacks
// (.env, local config) copied from the main checkout. Only files that match AND that git
// ignores are copied (Claude Code's and agent-deck's rule: a tracked file comes with the
// checkout); a file already in the new worktree is never overwritten.
import { constants, copyFileSync, existsSync, lstatSync, mkdirSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { errnoCode, FleetError } from '../errors.js';
import { git, runGit } from './git.js';

export const INCLUDE_FILE = '.worktreeinclude';

/** Paths (relative to the repository root) that match `.worktreeinclude` and are ignored by git. */
export async function includedFiles(repo: string): Promise<string[]> {
  const list = path.join(repo, INCLUDE_FILE);
  if (!existsSync(list)) return [];
  const matching = (await git(['-C', repo, 'ls-files', '-z', '--others', '--ignored', `--exclude-from=${list}`])).split('\0').filter((p) => p !== '');
  if (matching.length === 0) return [];
  const ignored = await runGit(['-C', repo, 'check-ignore', '--stdin', '-z'], { input: `${matching.join('\0')}\0` });
  if (ignored.code > 1) throw new FleetError(`git check-ignore failed: ${ignored.stderr.trim()}`);
  return ignored.stdout.split('\0').filter((p) => p !== '' && !p.split('/').includes('..'));
}

/** Copies them into the worktree; returns how many were copied (those present are left as they are). */
export async function copyIncluded(repo: string, worktree: string): Promise<number> {
  let copied = 0;
  for (const rel of await includedFiles(repo)) {
    const from = path.join(repo, rel);
    const to = path.join(worktree, rel);
    try {
      const stat = lstatSync(from);
      mkdirSync(path.dirname(to), { recursive: true });
      if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
      else if (stat.isFile()) copyFileSync(from, to, constants.COPYFILE_EXCL);
      else continue;
      copied += 1;
    } catch (error) {
      if (errnoCode(error) === 'EEXIST') continue;
      throw new FleetError(`${INCLUDE_FILE}: cannot copy ${rel} into ${worktree}: ${(error as Error).message}`);
    }
  }
  return copied;
}
