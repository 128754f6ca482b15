// What a merge, a squash or a rebase of a branch would give, computed before anything changes:
// `git merge-tree --write-tree` merges in git's object store only (no checkout, no index, no
// ref touched). A rebase is played the same way commit by commit: each commit C (parent P)
// onto the result so far R is the three-way merge of R and C over P, which merge-tree computes
// for a scratch commit of R's tree whose parent is P (their merge base is then P). The scratch
// commits are unreachable objects git's gc drops; no ref ever names them.
import { GitError, gitReason, git, runGit } from './git.js';

export interface Commit {
  sha: string;
  subject: string;
}

export type TreeMerge = { clean: true; tree: string } | { clean: false; conflicts: string[] };

const OID = /^[0-9a-f]{40,64}$/;
const DEADLINE = { deadlineMs: 120_000 };
/** Scratch commits are never signed (a signing key would be asked for each). */
const SCRATCH = ['-c', 'commit.gpgSign=false'];

/** `git merge-tree --write-tree --name-only --no-messages -z` as exit code and stdout. */
export function parseMergeTree(code: number, stdout: string, stderr = ''): TreeMerge {
  if (code !== 0 && code !== 1) throw new GitError(`git merge-tree failed: ${gitReason(stderr)}`);
  const [tree = '', ...paths] = stdout.split('\0');
  if (!OID.test(tree)) throw new GitError(`git merge-tree: unexpected output ${JSON.stringify(stdout.slice(0, 60))}`);
  if (code === 0) return { clean: true, tree };
  const conflicts = [...new Set(paths.filter((p) => p !== ''))];
  return { clean: false, conflicts: conflicts.length > 0 ? conflicts : ['(git named no file)'] };
}

export async function mergeTree(repo: string, ours: string, theirs: string): Promise<TreeMerge> {
  const r = await runGit(['-C', repo, 'merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', ours, theirs], DEADLINE);
  return parseMergeTree(r.code, r.stdout, r.stderr);
}

/** `sha<US>subject` lines of `git rev-list --format`. */
export function parseCommitLines(text: string): Commit[] {
  return text.split('\n').filter((l) => l !== '').map((line) => {
    const at = line.indexOf('\x1f');
    const sha = line.slice(0, at);
    if (at < 0 || !OID.test(sha)) throw new GitError(`git rev-list: unexpected line ${JSON.stringify(line.slice(0, 60))}`);
    return { sha, subject: line.slice(at + 1) };
  });
}

async function commitList(repo: string, args: readonly string[]): Promise<Commit[]> {
  return parseCommitLines(await git(['-C', repo, 'rev-list', '--reverse', '--no-commit-header', '--format=%H%x1f%s', ...args, '--'], DEADLINE));
}

/** The commits of `tip` that `into` lacks, oldest first (what a merge brings in). */
export function commitsToMerge(repo: string, into: string, tip: string): Promise<Commit[]> {
  return commitList(repo, [`${into}..${tip}`]);
}

/** The commits a rebase of `tip` onto `onto` replays: not merges, not those already there as a patch. */
export function commitsToReplay(repo: string, onto: string, tip: string): Promise<Commit[]> {
  return commitList(repo, ['--cherry-pick', '--right-only', '--no-merges', `${onto}...${tip}`]);
}

export async function treeOf(repo: string, commit: string): Promise<string> {
  return (await git(['-C', repo, 'rev-parse', '--verify', `${commit}^{tree}`])).trim();
}

async function scratchCommit(repo: string, tree: string, parent: string, env: Record<string, string>): Promise<string> {
  return (await git(['-C', repo, ...SCRATCH, 'commit-tree', tree, '-p', parent, '-m', 'fleetcom: scratch'], { env })).trim();
}

export type RebasePlay = { clean: true; tree: string; replayed: number } | { clean: false; at: Commit; conflicts: string[] };

/** The tree a rebase of `tip` onto `onto` ends with, or the first commit that conflicts. */
export async function playRebase(repo: string, onto: string, tip: string, env: Record<string, string>): Promise<RebasePlay> {
  const commits = await commitsToReplay(repo, onto, tip);
  let result = onto;
  for (const commit of commits) {
    const parent = (await git(['-C', repo, 'rev-parse', '--verify', `${commit.sha}^1`])).trim();
    const ours = await scratchCommit(repo, await treeOf(repo, result), parent, env);
    const merged = await mergeTree(repo, ours, commit.sha);
    if (!merged.clean) return { clean: false, at: commit, conflicts: merged.conflicts };
    result = await scratchCommit(repo, merged.tree, result, env);
  }
  return { clean: true, tree: await treeOf(repo, result), replayed: commits.length };
}
