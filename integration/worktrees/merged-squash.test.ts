// A squash merge recognised whatever the clock: the check builds the branch's change as one
// commit, which is byte for byte the user's own squash commit when both are made in the same
// second with the same identity and message (seen in CI: the branch was kept as unmerged).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { branchMerged } from '../../src/worktrees/merged.js';
import { useSandbox } from '../helpers/sandbox.js';

const saved = { ...process.env };
afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});

describe('a squash-merged branch', () => {
  it('is merged when the check makes the very commit the user made', async () => {
    const sb = await useSandbox();
    // The check's git runs with this process's environment: the sandbox's git config, one
    // identity and one clock for every commit.
    Object.assign(process.env, {
      GIT_CONFIG_GLOBAL: sb.env.GIT_CONFIG_GLOBAL ?? '/dev/null', GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.test', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.test',
      GIT_AUTHOR_DATE: '1700000000 +0000', GIT_COMMITTER_DATE: '1700000000 +0000',
    });
    const repo = await sb.mkdir('repo');
    const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'base.txt'), 'base\n');
    git('add', '.');
    git('commit', '-q', '-m', 'base');
    git('checkout', '-q', '-b', 'feat');
    for (const name of ['s1', 's2']) {
      writeFileSync(join(repo, `${name}.txt`), `${name}\n`);
      git('add', '.');
      git('commit', '-q', '-m', name);
    }
    git('checkout', '-q', 'main');
    git('merge', '-q', '--squash', 'feat');
    git('commit', '-q', '-m', 'squash of feat');
    expect(await branchMerged(repo, 'feat', 'refs/heads/main')).toEqual({ merged: true, how: 'squash-merged' });
    // A branch with work that is not there stays unmerged.
    git('checkout', '-q', '-b', 'open', 'feat');
    writeFileSync(join(repo, 'o.txt'), 'o\n');
    git('add', '.');
    git('commit', '-q', '-m', 'o');
    expect(await branchMerged(repo, 'open', 'refs/heads/main')).toMatchObject({ merged: false });
  });
});
