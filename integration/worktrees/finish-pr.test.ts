// `fleetcom finish --pr`: the branch pushed with the user's git (to a bare repository standing in
// for GitHub: the remotes' URLs are GitHub's as configured, url.insteadOf sends git to the bare
// one) and a pull request opened with the user's gh (a fake on PATH whose argv is checked), or,
// without gh, the page that opens one printed. Hostile branch, remote and commit names go
// through as argv words. `worktrees` shows the pull request's state, and `--prune` takes a
// pull request merged with the branch's very tip as merged.
import { existsSync, symlinkSync } from 'node:fs';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { commitFile, git, gitOnPath, makeRepo, runInWorktree } from './kit.js';

const ghDir = fileURLToPath(new URL('../fixtures/gh', import.meta.url));
const HOSTILE_BRANCH = 'feat/it\'s;x`id`|a&b"<c>$HOME';
const HOSTILE_REMOTE = 'up;it\'s|`id`&$HOME';
const HOSTILE_SUBJECT = 'add a; touch "$HOME/pwned" `touch $HOME/pwned2`';

describe('fleetcom finish --pr', () => {
  it('pushes and opens a pull request with gh, prints the compare page without it, and worktrees tells its state', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const bare = join(sb.dir, 'remote.git');
    await git(sb, sb.dir, 'init', '-q', '--bare', bare);
    await appendFile(join(sb.home, '.gitconfig'), `[url "${bare}"]\n\tinsteadOf = https://github.com/acme/api.git\n\tinsteadOf = git@github.com:acme/api.git\n`);
    await git(sb, repo, 'remote', 'add', 'origin', 'https://github.com/acme/api.git');
    await git(sb, repo, 'remote', 'add', HOSTILE_REMOTE, 'git@github.com:acme/api.git');
    await git(sb, repo, 'push', '-q', 'origin', 'main');
    const fleet = await startFleet(sb);
    const ghLog = join(sb.dir, 'gh.log');
    const prs = join(sb.dir, 'prs.json');
    const withGh = { ...sb.env, PATH: `${ghDir}:${sb.env.PATH}`, FAKE_GH_LOG: ghLog, FAKE_GH_PRS: prs };
    const gitOnly = await sb.mkdir('git-only');
    symlinkSync(gitOnPath(sb), join(gitOnly, 'git'));
    const withoutGh = { ...sb.env, PATH: gitOnly };
    const ghCalls = async () => (await readFile(ghLog, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { argv: string[]; cwd: string });

    // A hostile branch pushed to a hostile remote (its own, by branch.<name>.remote), the pull request opened by gh.
    const hostile = await runInWorktree(fleet, repo, HOSTILE_BRANCH);
    await commitFile(sb, hostile.cwd, 'a.txt', 'a\n', HOSTILE_SUBJECT);
    await git(sb, repo, 'config', `branch.${HOSTILE_BRANCH}.remote`, HOSTILE_REMOTE);
    const tip = (await git(sb, repo, 'rev-parse', `refs/heads/${HOSTILE_BRANCH}`)).trim();
    const opened = await fleet.cliIn(sb.dir, withGh, 'finish', String(hostile.id), '--pr');
    expect(opened.exitCode, opened.stderr).toBe(0);
    expect(opened.stdout).toBe('https://github.com/acme/api/pull/7\n');
    expect(opened.stderr).toContain(`pushed ${HOSTILE_BRANCH} to ${HOSTILE_REMOTE} (git@github.com:acme/api.git)`);
    const openOf = { argv: ['pr', 'list', `--head=${HOSTILE_BRANCH}`, '--state=open', '--limit=10', '--json=number,state,url,headRefName,headRefOid,isCrossRepository'], cwd: hostile.cwd };
    expect(await ghCalls()).toEqual([openOf, {
      argv: ['pr', 'create', '--base=main', `--head=${HOSTILE_BRANCH}`, `--title=${HOSTILE_SUBJECT}`, `--body=- ${HOSTILE_SUBJECT} (${tip.slice(0, 12)})`],
      cwd: hostile.cwd,
    }]);
    expect((await git(sb, sb.dir, '--git-dir', bare, 'rev-parse', `refs/heads/${HOSTILE_BRANCH}`)).trim()).toBe(tip);
    expect(existsSync(join(sb.home, 'pwned')) || existsSync(join(sb.home, 'pwned2'))).toBe(false);
    // The task and its worktree stay: the conversation goes on while the pull request is reviewed.
    expect((await fleet.task(hostile.id)).worktree?.branch).toBe(HOSTILE_BRANCH);
    expect(existsSync(hostile.cwd)).toBe(true);

    // Without gh: the page that opens the pull request, the branch's name encoded in it.
    const again = await fleet.cliIn(sb.dir, withoutGh, 'finish', String(hostile.id), '--pr');
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toBe('https://github.com/acme/api/compare/main...feat/it\'s%3Bx%60id%60%7Ca%26b%22%3Cc%3E%24HOME?expand=1\n');

    // A plain branch to origin: gh failing says why (the branch is pushed); without gh, --json.
    const plain = await runInWorktree(fleet, repo, 'feat-b');
    await commitFile(sb, plain.cwd, 'b1.txt', 'b1\n');
    await commitFile(sb, plain.cwd, 'b2.txt', 'b2\n');
    const failed = await fleet.cliIn(sb.dir, { ...withGh, FAKE_GH_FAIL: '1' }, 'finish', String(plain.id), '--pr');
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain('gh pr create failed: To get started with GitHub CLI, please run:  gh auth login');
    const json = await fleet.cliIn(sb.dir, withoutGh, 'finish', String(plain.id), '--pr', '--json');
    expect(json.exitCode, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout) as { plan: { pullRequest: { remote: string; gh: boolean; title: string } }; result: { done: boolean; pullRequest: unknown } };
    expect(doc.plan.pullRequest).toMatchObject({ remote: 'origin', gh: false, title: 'feat-b' });
    expect(doc.result).toMatchObject({ done: true, pullRequest: { url: 'https://github.com/acme/api/compare/main...feat-b?expand=1', opened: false } });
    expect(json.stderr).toContain('gh is not installed: open the pull request at https://github.com/acme/api/compare/main...feat-b?expand=1');
    expect((await git(sb, sb.dir, '--git-dir', bare, 'rev-parse', 'refs/heads/feat-b')).trim()).toBe((await git(sb, repo, 'rev-parse', 'feat-b')).trim());

    // worktrees shows the state gh tells; --prune takes a pull request merged with the branch's tip as merged.
    const pr = (state: string, head: string, fork: object[] = []) => writeFile(prs, JSON.stringify([...fork, { number: 7, state, url: 'https://github.com/acme/api/pull/7', headRefName: HOSTILE_BRANCH, headRefOid: head, isCrossRepository: false }]));
    await pr('OPEN', tip);
    const listed = await fleet.cliIn(sb.dir, withGh, 'worktrees');
    expect(listed.stdout).toContain('PR #7 open');
    expect((await ghCalls()).at(-1)).toEqual({ argv: ['pr', 'list', '--state=all', '--limit=200', '--json=number,state,url,headRefName,headRefOid'], cwd: repo });

    // finish --pr again after more work: the open pull request gets the new commits; none is
    // created. A fork's open pull request of a branch of the same name is not it.
    await commitFile(sb, hostile.cwd, 'a2.txt', 'a2\n', 'more work');
    const newTip = (await git(sb, repo, 'rev-parse', `refs/heads/${HOSTILE_BRANCH}`)).trim();
    const creates = async () => (await ghCalls()).filter((c) => c.argv[1] === 'create').length;
    const fork = { number: 12, state: 'OPEN', url: 'https://github.com/acme/api/pull/12', headRefName: HOSTILE_BRANCH, headRefOid: tip, isCrossRepository: true };
    await writeFile(prs, JSON.stringify([fork]));
    const createdFirst = await creates();
    const beside = await fleet.cliIn(sb.dir, withGh, 'finish', String(hostile.id), '--pr');
    expect(beside.exitCode, beside.stderr).toBe(0);
    expect(beside.stderr).toContain(`opened a pull request of ${HOSTILE_BRANCH} into main`);
    expect(await creates()).toBe(createdFirst + 1);
    await pr('OPEN', tip, [fork]); // this repository's pull request, beside the fork's
    const createdBefore = await creates();
    const updated = await fleet.cliIn(sb.dir, withGh, 'finish', String(hostile.id), '--pr');
    expect(updated.exitCode, updated.stderr).toBe(0);
    expect(updated.stdout).toBe('https://github.com/acme/api/pull/7\n');
    expect(updated.stderr).toContain(`the pull request of ${HOSTILE_BRANCH} is open already, now with its new commits: https://github.com/acme/api/pull/7`);
    expect(await creates()).toBe(createdBefore);
    expect((await ghCalls()).at(-1)).toEqual(openOf);
    expect((await git(sb, sb.dir, '--git-dir', bare, 'rev-parse', `refs/heads/${HOSTILE_BRANCH}`)).trim()).toBe(newTip);
    await pr('OPEN', newTip);
    expect((await fleet.cli('rm', String(hostile.id))).exitCode).toBe(0);
    const stillOpen = await fleet.cliIn(sb.dir, withGh, 'worktrees', '--prune');
    expect(stillOpen.stderr).toContain(`kept ${hostile.cwd}: branch ${HOSTILE_BRANCH} is not merged (its commits are not in main; PR #7 is open)`);
    await pr('MERGED', newTip);
    const pruned = await fleet.cliIn(sb.dir, withGh, 'worktrees', '--prune');
    expect(pruned.stderr).toContain(`removed the worktree ${hostile.cwd}`);
    expect(pruned.stderr).toContain(`kept ${plain.cwd}: task ${plain.id} use it`);
    expect(existsSync(hostile.cwd)).toBe(false);
  });
});
