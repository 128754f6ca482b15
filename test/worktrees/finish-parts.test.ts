// The pure parts of `fleetcom finish`: git's and gh's output read strictly, the messages and
// URLs it makes, the untracked files in a merge's way, the flags, and the plan in words.
import { describe, expect, it } from 'vitest';
import { finishMode } from '../../src/commands/worktrees/finish.js';
import { collisions, type FinishPlan } from '../../src/worktrees/finish-plan.js';
import { planJson, planLines } from '../../src/worktrees/finish-report.js';
import { mergeMessage, squashMessage } from '../../src/worktrees/finish-steps.js';
import { parsePullRequestList, parsePullRequests } from '../../src/worktrees/gh.js';
import { atLeast, parseGitVersion } from '../../src/worktrees/git-version.js';
import { parseCommitLines, parseMergeTree } from '../../src/worktrees/merge-check.js';
import { compareUrl, pullRequestText, webPlace, withoutCredentials } from '../../src/worktrees/pull-request.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('git version', () => {
  it.each([
    ['git version 2.39.5', [2, 39, 5]],
    ['git version 2.38.0.windows.1', [2, 38, 0]],
    ['git version 2.39.3 (Apple Git-146)\n', [2, 39, 3]],
    ['git version 2.40', [2, 40, 0]],
    ['hub version 2.14', null],
    ['', null],
  ] as const)('reads %j', (text, version) => {
    expect(parseGitVersion(text)).toEqual(version);
  });

  it('compares versions part by part', () => {
    expect(atLeast([2, 38, 0], [2, 38])).toBe(true);
    expect(atLeast([2, 37, 99], [2, 38])).toBe(false);
    expect(atLeast([3, 0, 0], [2, 38])).toBe(true);
    expect(atLeast([1, 99, 0], [2, 38])).toBe(false);
  });
});

describe('git merge-tree --write-tree -z --name-only', () => {
  it('reads a clean merge as its tree, a conflicted one as its files (each once)', () => {
    expect(parseMergeTree(0, `${A}\0`)).toEqual({ clean: true, tree: A });
    expect(parseMergeTree(1, `${A}\0a.txt\0dir/b c\0a.txt\0`)).toEqual({ clean: false, conflicts: ['a.txt', 'dir/b c'] });
  });

  it('refuses an exit code other than 0 and 1, and output without a tree', () => {
    expect(() => parseMergeTree(128, '', 'fatal: unknown option --write-tree\n')).toThrow('git merge-tree failed: unknown option --write-tree');
    expect(() => parseMergeTree(0, 'Auto-merging a\n')).toThrow(/unexpected output/);
  });

  it('reads rev-list --format lines, subjects holding any text', () => {
    expect(parseCommitLines(`${A}\x1ffix: a | b; $(x)\n${B}\x1f\n`)).toEqual([{ sha: A, subject: 'fix: a | b; $(x)' }, { sha: B, subject: '' }]);
    expect(() => parseCommitLines('commit abc\n')).toThrow(/unexpected line/);
  });
});

describe('the merge in the way of untracked files', () => {
  it('finds an untracked file the merge writes, one it would put a file under, and one under a file it writes', () => {
    expect(collisions(['a.txt', 'notes/x', 'dir', 'keep.txt', 'src/new/deep.ts'], ['a.txt', 'notes', 'dir/file', 'src/new'])).toEqual(['a.txt', 'notes/x', 'dir', 'src/new/deep.ts']);
    expect(collisions(['ab'], ['a', 'abc'])).toEqual([]);
  });
});

describe('messages', () => {
  it("writes git's merge message, naming the target unless main or master", () => {
    expect(mergeMessage('feat-x', 'main')).toBe("Merge branch 'feat-x'");
    expect(mergeMessage('feat-x', 'release/2')).toBe("Merge branch 'feat-x' into release/2");
  });

  it("lists the branch's commits in the squash message; one commit keeps its subject", () => {
    expect(squashMessage('feat-x', [{ sha: A, subject: 'add a' }, { sha: B, subject: 'fix b' }])).toBe(
      `Merge branch 'feat-x' (2 commits squashed)\n\nSquashed from branch 'feat-x':\n- ${A.slice(0, 12)} add a\n- ${B.slice(0, 12)} fix b\n`,
    );
    expect(squashMessage('feat-x', [{ sha: A, subject: 'add a' }]).split('\n')[0]).toBe('add a');
  });

  it("titles a pull request as gh --fill does: one commit's subject, else the branch", () => {
    expect(pullRequestText('feat-x', [{ sha: A, subject: 'add a' }])).toEqual({ title: 'add a', body: `- add a (${A.slice(0, 12)})` });
    expect(pullRequestText('feat-x', [{ sha: A, subject: 'a' }, { sha: B, subject: 'b' }]).title).toBe('feat-x');
  });
});

describe('the page that opens a pull request', () => {
  it.each([
    ['https://github.com/acme/api.git', { host: 'github.com', path: 'acme/api' }],
    ['https://user:ghp_secret@github.com/acme/api', { host: 'github.com', path: 'acme/api' }],
    ['git@github.com:acme/api.git', { host: 'github.com', path: 'acme/api' }],
    ['ssh://git@ghe.example.com:2222/team/sub/api.git/', { host: 'ghe.example.com', path: 'team/sub/api' }],
    ['/srv/git/api.git', null],
    ['../api.git', null],
    ['file:///srv/git/api.git', null],
    ['https://github.com/../../etc', null],
    ['localhost:api', null],
  ] as const)('finds the web place of %s', (url, place) => {
    expect(webPlace(url)).toEqual(place);
  });

  it('encodes the branch names, keeping their slashes', () => {
    expect(compareUrl('git@github.com:acme/api.git', 'main', 'feat/it\'s;x`id`|a&b"<c>$HOME')).toBe(
      "https://github.com/acme/api/compare/main...feat/it's%3Bx%60id%60%7Ca%26b%22%3Cc%3E%24HOME?expand=1",
    );
    expect(compareUrl('/srv/git/api.git', 'main', 'x')).toBeNull();
  });

  it('never prints the credentials a remote URL holds', () => {
    expect(withoutCredentials('https://user:ghp_secret@github.com/acme/api.git')).toBe('https://github.com/acme/api.git');
    expect(withoutCredentials('git@github.com:acme/api.git')).toBe('git@github.com:acme/api.git');
  });
});

describe('gh pr list --json', () => {
  it('keeps the newest pull request of each branch, states lowercased', () => {
    const prs = parsePullRequests(JSON.stringify([
      { number: 3, state: 'CLOSED', url: 'u3', headRefName: 'x', headRefOid: A },
      { number: 9, state: 'MERGED', url: 'u9', headRefName: 'x', headRefOid: B },
      { number: 4, state: 'OPEN', url: 'u4', headRefName: 'y', headRefOid: A },
    ]));
    expect(prs.get('x')).toEqual({ number: 9, state: 'merged', url: 'u9', head: B, crossRepository: null });
    expect(prs.get('y')?.state).toBe('open');
  });

  it('tells a fork\'s pull request of a branch of the same name from this repository\'s', () => {
    const prs = parsePullRequestList(JSON.stringify([
      { number: 12, state: 'OPEN', url: 'u12', headRefName: 'fix', headRefOid: A, isCrossRepository: true },
      { number: 7, state: 'OPEN', url: 'u7', headRefName: 'fix', headRefOid: B, isCrossRepository: false },
    ]));
    expect(prs.map((p) => [p.number, p.branch, p.crossRepository])).toEqual([[12, 'fix', true], [7, 'fix', false]]);
    expect(() => parsePullRequestList(JSON.stringify([{ number: 1, state: 'OPEN', url: 'u', headRefName: 'x', headRefOid: A, isCrossRepository: 'no' }]))).toThrow(/gh pr list: 0\.isCrossRepository/);
  });

  it('refuses what is not that shape, naming where', () => {
    expect(() => parsePullRequests('not json')).toThrow('gh pr list: not JSON');
    expect(() => parsePullRequests(JSON.stringify([{ number: 1, state: 'DRAFT', url: 'u', headRefName: 'x', headRefOid: A }]))).toThrow(/gh pr list: 0\.state/);
  });
});

describe('finish flags', () => {
  it('merges by default, takes one mode, and refuses what does not go together', () => {
    expect(finishMode({})).toBe('merge');
    expect(finishMode({ rebase: true })).toBe('rebase');
    expect(() => finishMode({ squash: true, rebase: true })).toThrow('--squash and --rebase: choose one');
    expect(() => finishMode({ pr: true, keepBranch: true })).toThrow(/--pr keeps the task/);
    expect(() => finishMode({ commit: '  ' })).toThrow('--commit needs a message');
  });
});

describe('the plan in words', () => {
  const record = { repo: '/src/api', path: '/src/api.worktrees/feat-x', branch: 'feat-x', base: A, baseRef: 'main' };
  const plan: FinishPlan = {
    mode: 'squash', record, into: 'main', intoSource: 'base', target: '/src/api', head: A, tip: A, intoTip: B,
    commitFirst: { message: 'wip', files: ['a.txt'] }, commits: [{ sha: A, subject: 'add a' }], tree: B, alreadyIn: false, conflicts: [], pr: null,
    keepWorktree: null, keepBranch: '--keep-branch', notes: [], refusals: [],
  };

  it('numbers each step, the commits under the landing, and names the conversation that stays', () => {
    expect(planLines(plan, { id: 3, conversation: 'claude 0b6f' })).toEqual([
      'task 3: finish branch feat-x into main (the branch it was based on) by squash',
      '  1. commit 1 uncommitted file(s) in /src/api.worktrees/feat-x as "wip": a.txt',
      '  2. squash 1 commit(s) into one commit on main in /src/api (git merge --squash, git commit; no conflict):',
      `       ${A.slice(0, 12)} add a`,
      "  3. stop and remove task 3 (its conversation, claude 0b6f, stays in the agent's store: fleetcom history lists it)",
      '  4. remove the worktree /src/api.worktrees/feat-x (if it is still clean then)',
      '  5. keep branch feat-x: --keep-branch',
    ]);
  });

  it('ends with every refusal, and says ok in JSON only when there is none', () => {
    const refused = { ...plan, refusals: ['merging feat-x into main conflicts in: a.txt'] };
    expect(planLines(refused, { id: 3, conversation: null }).slice(-2)).toEqual(['refused, nothing changed:', '  - merging feat-x into main conflicts in: a.txt']);
    expect(planJson(refused, { id: 3, conversation: null })).toMatchObject({ task: 3, ok: false, mode: 'squash', into: 'main', intoSource: 'base' });
    expect(planJson(plan, { id: 3, conversation: null }).ok).toBe(true);
  });
});
