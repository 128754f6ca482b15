// `finish --pr`: the branch pushed to its remote with the user's git, then a pull request
// opened with the user's gh when it is installed, else the URL that opens one printed. The
// remote is the branch's own (branch.<name>.remote), else the target branch's, else origin,
// else the only one. Its URL is read as configured (before insteadOf), and a URL is printed
// without the credentials it may hold.
import { FleetError } from '../errors.js';
import type { WorktreeRecord } from '../worktree-record.js';
import { createPullRequest, openPullRequestOf } from './gh.js';
import { git, gitReason, runGit } from './git.js';
import type { Commit } from './merge-check.js';

export interface PullRequestPlan {
  remote: string;
  /** The remote's URL as configured, credentials left out. */
  url: string;
  /** The user's gh, or null: then the compare URL is printed. */
  gh: string | null;
  /** The web page that opens a pull request (GitHub's form), or null when the URL is no web host's. */
  compareUrl: string | null;
  title: string;
  body: string;
}

/** The host and path of a remote URL (https, ssh, git or scp-like `host:path`), or null for a local one. */
export function webPlace(url: string): { host: string; path: string } | null {
  const text = url.trim();
  let host: string;
  let rest: string;
  const scheme = /^(https?|ssh|git|git\+ssh|ssh\+git):\/\/([^/]+)\/(.+)$/.exec(text);
  if (scheme !== null) {
    host = scheme[2]!.replace(/^[^@]*@/, '').replace(/:\d+$/, '');
    rest = scheme[3]!;
  } else {
    const scp = /^(?:[^@/:\s]+@)?([^/:\s]+):(?!\/\/)(.+)$/.exec(text);
    if (scp === null || text.startsWith('/') || text.startsWith('.')) return null;
    host = scp[1]!;
    rest = scp[2]!;
  }
  const pathPart = rest.replace(/\/+$/, '').replace(/\.git$/, '').replace(/^\/+/, '');
  if (!/^[A-Za-z0-9.-]+$/.test(host) || !host.includes('.') || pathPart === '' || pathPart.split('/').some((s) => s === '' || s === '..' || s === '.')) return null;
  return { host, path: pathPart };
}

/** `https://host/owner/repo/compare/<into>...<branch>?expand=1` (GitHub's form), or null. */
export function compareUrl(remoteUrl: string, into: string, branch: string): string | null {
  const place = webPlace(remoteUrl);
  if (place === null) return null;
  const enc = (ref: string) => ref.split('/').map(encodeURIComponent).join('/');
  return `https://${place.host}/${place.path.split('/').map(encodeURIComponent).join('/')}/compare/${enc(into)}...${enc(branch)}?expand=1`;
}

/** A URL with any `user:password@` left out (a token in a remote URL is never printed). */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

/** gh's own --fill: one commit's subject as the title, else the branch; the commits listed. */
export function pullRequestText(branch: string, commits: readonly Commit[]): { title: string; body: string } {
  const title = commits.length === 1 ? commits[0]!.subject : branch;
  const body = commits.map((c) => `- ${c.subject} (${c.sha.slice(0, 12)})`).join('\n');
  return { title: title.trim() === '' ? branch : title, body };
}

async function configValue(repo: string, key: string): Promise<string | null> {
  const r = await runGit(['-C', repo, 'config', '--get', key]);
  if (r.code === 1) return null;
  if (r.code !== 0) throw new FleetError(`git config --get ${key} failed: ${gitReason(r.stderr)}`);
  return r.stdout.trim() || null;
}

/** The remote to push `branch` to; a refusal when there is none or its name cannot go into git's argv. */
export async function remoteFor(repo: string, branch: string, into: string): Promise<{ remote: string } | { refused: string }> {
  const remotes = (await git(['-C', repo, 'remote'])).split('\n').filter((r) => r !== '');
  const own = await configValue(repo, `branch.${branch}.remote`);
  const theirs = await configValue(repo, `branch.${into}.remote`);
  const remote = [own, theirs].find((r) => r !== null && remotes.includes(r)) ?? (remotes.includes('origin') ? 'origin' : remotes.length === 1 ? remotes[0]! : null);
  if (remote === null) {
    return { refused: remotes.length === 0 ? `${repo} has no remote to push ${branch} to (git remote add origin URL)` : `${repo} has ${remotes.length} remotes and none is the branch's, ${into}'s or origin: set one with git branch --set-upstream-to` };
  }
  if (remote.startsWith('-')) return { refused: `the remote ${JSON.stringify(remote)} begins with '-': git would read it as an option` };
  return { remote };
}

export async function planPullRequest(record: WorktreeRecord, into: string, commits: readonly Commit[], gh: string | null): Promise<PullRequestPlan | { refused: string }> {
  const chosen = await remoteFor(record.repo, record.branch, into);
  if ('refused' in chosen) return chosen;
  const url = (await configValue(record.repo, `remote.${chosen.remote}.url`)) ?? '';
  if (url === '') return { refused: `the remote ${chosen.remote} has no url` };
  return { remote: chosen.remote, url: withoutCredentials(url), gh, compareUrl: compareUrl(url, into, record.branch), ...pullRequestText(record.branch, commits) };
}

/**
 * Pushes the branch; then gh's pull request (the one already open for the branch, which the
 * push has brought up to date, else a new one), or null when there is no gh (print the compare URL).
 */
export async function pushAndOpen(record: WorktreeRecord, into: string, plan: PullRequestPlan, say: (line: string) => void): Promise<{ url: string; existing: boolean } | null> {
  const ref = `refs/heads/${record.branch}`;
  await git(['-C', record.path, 'push', '--quiet', plan.remote, `${ref}:${ref}`], { deadlineMs: 300_000 });
  say(`pushed ${record.branch} to ${plan.remote} (${plan.url})`);
  if (plan.gh === null) return null;
  const open = await openPullRequestOf(plan.gh, record.path, record.branch);
  if (open !== null) return { url: open.url, existing: true };
  return { url: await createPullRequest(plan.gh, record.path, { base: into, head: record.branch, title: plan.title, body: plan.body }), existing: false };
}
