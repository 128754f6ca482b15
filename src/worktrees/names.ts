// Branch names and where a branch's worktree goes. A branch name comes from the user's command
// line and ends up in a path and in git's argv: it is checked by git's own rule (`git
// check-ref-format --branch`) and refused when it begins with `-` (git would read an option).
import path from 'node:path';
import { UsageError } from '../errors.js';
import { runGit } from './git.js';

/** Refuses a branch name git would not take, or one that reads as an option; exit 2. */
export async function checkBranchName(branch: string, flag = '--worktree'): Promise<void> {
  if (branch === '' || branch.startsWith('-')) throw new UsageError(`${flag} ${JSON.stringify(branch)}: a branch name must not be empty or begin with '-'`);
  // `@{-1}` and friends are expanded by check-ref-format --branch: a name must name itself.
  if (branch.includes('@{') || branch === '@') throw new UsageError(`${flag} ${JSON.stringify(branch)}: not a branch name (git would expand it)`);
  const result = await runGit(['check-ref-format', '--branch', branch]);
  if (result.code !== 0 || result.stdout.trim() !== branch) {
    throw new UsageError(`${flag} ${JSON.stringify(branch)}: not a valid branch name (git check-ref-format --branch refuses it)`);
  }
}

/** A branch as one path segment: slashes become `-` (a name git accepts has no `..` or leading `.` part). */
export function branchSegment(branch: string): string {
  return branch.replaceAll('/', '-');
}

/**
 * The worktree path of `branch` by `template`: `{repo}` the repository's directory name,
 * `{repo-root}` its path, `{branch}` the branch as one segment; relative results are taken
 * from the repository root. The template must hold `{branch}` and the result must stay in the
 * directory the part before `{branch}` names, and outside the repository's own `.git`;
 * otherwise exit 2, nothing made.
 */
export function worktreePath(template: string, repoRoot: string, branch: string): string {
  const at = template.indexOf('{branch}');
  if (at < 0) throw new UsageError(`worktreeDir ${JSON.stringify(template)}: the template must contain {branch}`);
  const fill = (text: string, segment: string) => text
    .replaceAll('{repo-root}', repoRoot)
    .replaceAll('{repo}', path.basename(repoRoot))
    .replaceAll('{branch}', segment);
  const before = fill(template.slice(0, at), '');
  // The directory the text before {branch} names: itself when it ends in '/', else its parent.
  const place = before === '' || before.endsWith('/') ? path.resolve(repoRoot, before || '.') : path.dirname(path.resolve(repoRoot, `${before}x`));
  const target = path.resolve(repoRoot, fill(template, branchSegment(branch)));
  const inside = (dir: string, p: string) => p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
  if (!inside(place, target)) {
    throw new UsageError(`worktreeDir ${JSON.stringify(template)} puts branch ${branch} at ${target}, outside ${place}`);
  }
  if (target === repoRoot || inside(target, repoRoot) || target === path.join(repoRoot, '.git') || inside(path.join(repoRoot, '.git'), target)) {
    throw new UsageError(`worktreeDir ${JSON.stringify(template)} puts branch ${branch} at ${target}, over the repository itself`);
  }
  return target;
}
