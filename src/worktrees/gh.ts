// The user's GitHub CLI, when it is installed: `gh pr create` opens the pull request of a
// finished branch and `gh pr list` tells the state of each branch's pull request. Found on the
// caller's PATH (never installed or configured by fleetcom), run with argv words only under a
// deadline, prompts off. What gh prints is input, checked by a schema.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { FleetError } from '../errors.js';
import { gitReason, runProgram, type GitResult } from './git.js';

const GH_DEADLINE_MS = 60_000;
/** `worktrees` asks gh on every listing: a slow network must not hold it long. */
export const GH_LIST_DEADLINE_MS = 10_000;

/** The executable `gh` in a directory of `pathVar`, or null when there is none. */
export function findOnPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(':')) {
    if (dir === '' || !path.isAbsolute(dir)) continue;
    const file = path.join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not there, or not executable: the next directory
    }
  }
  return null;
}

export function runGh(gh: string, args: readonly string[], cwd: string, deadlineMs = GH_DEADLINE_MS): Promise<GitResult> {
  return runProgram(gh, args, { cwd, deadlineMs, env: { GH_PROMPT_DISABLED: '1', GH_NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1' } }, `gh ${args.slice(0, 2).join(' ')}`);
}

/** `gh pr create …`: the URL gh printed (its last line that is one). */
export async function createPullRequest(gh: string, cwd: string, pr: { base: string; head: string; title: string; body: string }): Promise<string> {
  // --flag=value: a value beginning with '-' is never read as a flag.
  const r = await runGh(gh, ['pr', 'create', `--base=${pr.base}`, `--head=${pr.head}`, `--title=${pr.title}`, `--body=${pr.body}`], cwd);
  if (r.code !== 0) throw new FleetError(`gh pr create failed: ${gitReason(r.stderr)}`);
  const url = r.stdout.split('\n').map((l) => l.trim()).reverse().find((l) => /^https?:\/\/\S+$/.test(l));
  if (url === undefined) throw new FleetError(`gh pr create printed no pull request URL (${JSON.stringify(r.stdout.trim().slice(0, 80))})`);
  return url;
}

const prSchema = z.array(z.object({
  number: z.number().int().positive(),
  state: z.enum(['OPEN', 'CLOSED', 'MERGED']),
  url: z.string(),
  headRefName: z.string(),
  headRefOid: z.string().regex(/^[0-9a-f]{40,64}$/),
  isCrossRepository: z.boolean().optional(),
}));

export interface PullRequestState {
  number: number;
  state: 'open' | 'closed' | 'merged';
  url: string;
  /** The commit the pull request's branch was at. */
  head: string;
  /** Its branch is a fork's (null: gh was not asked). */
  crossRepository: boolean | null;
}

/** Parses `gh pr list --json number,state,url,headRefName,headRefOid[,isCrossRepository]`: each pull request with its branch. */
export function parsePullRequestList(text: string): (PullRequestState & { branch: string })[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new FleetError(`gh pr list: not JSON (${JSON.stringify(text.slice(0, 60))})`);
  }
  const parsed = prSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FleetError(`gh pr list: ${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'unexpected'}`);
  }
  return parsed.data.map((pr) => ({
    branch: pr.headRefName, number: pr.number, state: pr.state.toLowerCase() as PullRequestState['state'], url: pr.url, head: pr.headRefOid, crossRepository: pr.isCrossRepository ?? null,
  }));
}

/** The newest pull request per branch, from `gh pr list`'s JSON. */
export function parsePullRequests(text: string): Map<string, PullRequestState> {
  const out = new Map<string, PullRequestState>();
  for (const { branch, ...pr } of parsePullRequestList(text)) {
    const known = out.get(branch);
    if (known !== undefined && known.number > pr.number) continue;
    out.set(branch, pr);
  }
  return out;
}

/**
 * The open pull request of this repository whose head is `branch`, or null: none, or gh could
 * not tell (then `pr create` is tried and says why it fails). `finish --pr` run again after
 * more commits pushes them to that pull request rather than failing on gh's "already exists".
 * gh matches `--head` by branch name alone: a fork's pull request of a branch of the same
 * name is not this one.
 */
export async function openPullRequestOf(gh: string, cwd: string, branch: string): Promise<PullRequestState | null> {
  const r = await runGh(gh, ['pr', 'list', `--head=${branch}`, '--state=open', '--limit=10', '--json=number,state,url,headRefName,headRefOid,isCrossRepository'], cwd, GH_LIST_DEADLINE_MS);
  if (r.code !== 0) return null;
  let prs: ReturnType<typeof parsePullRequestList>;
  try {
    prs = [...parsePullRequestList(r.stdout)];
  } catch {
    return null;
  }
  return prs.find((pr) => pr.state === 'open' && pr.crossRepository === false && pr.branch === branch) ?? null;
}

/** The pull requests of the repository whose checkout is `repo`, by branch. */
export async function pullRequests(gh: string, repo: string): Promise<Map<string, PullRequestState>> {
  const r = await runGh(gh, ['pr', 'list', '--state=all', '--limit=200', '--json=number,state,url,headRefName,headRefOid'], repo, GH_LIST_DEADLINE_MS);
  if (r.code !== 0) throw new FleetError(`gh pr list failed: ${gitReason(r.stderr)}`);
  return parsePullRequests(r.stdout);
}
