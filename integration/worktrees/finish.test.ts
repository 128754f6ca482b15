// `fleetcom finish` with real git: --merge, --squash and --rebase each land exactly the tree of
// the target plus the branch's work (checked file by file against what the test wrote), then
// the task, its worktree and its branch are gone (a hostile branch name too); --dry-run
// changes nothing.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { commitFile, git, makeRepo, runInWorktree, worktreePaths } from './kit.js';

/** Every file of a commit's tree with its content. */
async function treeFiles(sb: Sandbox, repo: string, rev: string): Promise<Record<string, string>> {
  const names = (await git(sb, repo, 'ls-tree', '-r', '-z', '--name-only', rev)).split('\0').filter(Boolean);
  const out: Record<string, string> = {};
  for (const name of names) out[name] = await git(sb, repo, 'show', `${rev}:${name}`);
  return out;
}

/** A branch name git takes that a shell would not: every word of it goes to git as argv. */
const HOSTILE = 'feat/it\'s;x`id`|a&b"<c>$HOME';

const subjects = async (sb: Sandbox, repo: string, range: string) => (await git(sb, repo, 'log', '--format=%s', range)).split('\n').filter(Boolean);

describe('fleetcom finish', () => {
  it('merges, squashes and rebases into the base branch, landing the exact tree, then cleans up', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const tasks = { merge: await runInWorktree(fleet, repo, 'feat-m'), squash: await runInWorktree(fleet, repo, HOSTILE), rebase: await runInWorktree(fleet, repo, 'feat-r') };
    for (const [mode, task] of Object.entries(tasks)) {
      await commitFile(sb, task.cwd, `${mode}-1.txt`, `${mode} one\n`);
      await commitFile(sb, task.cwd, `${mode}-2.txt`, `${mode} two\n`);
    }
    // main moves on meanwhile: every finish is a real merge, not a fast-forward.
    await commitFile(sb, repo, 'main.txt', 'main moved\n');
    const expected: Record<string, string> = { README: 'hello\n', '.gitignore': '.env\n*.log\n', 'main.txt': 'main moved\n' };

    const refsBefore = await git(sb, repo, 'for-each-ref');
    const dry = await fleet.cli('finish', String(tasks.merge.id), '--dry-run');
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`task ${tasks.merge.id}: finish branch feat-m into main (the branch it was based on) by merge`);
    expect(dry.stdout).toMatch(/merge 2 commit\(s\) into main in .* no conflict/);
    expect(dry.stdout).toContain('add merge-2.txt');
    expect(await git(sb, repo, 'for-each-ref')).toBe(refsBefore);
    expect(existsSync(tasks.merge.cwd)).toBe(true);

    const branchTip = (await git(sb, repo, 'rev-parse', 'feat-m')).trim();
    const mainBefore = (await git(sb, repo, 'rev-parse', 'main')).trim();
    const merged = await fleet.cli('finish', String(tasks.merge.id), '--merge');
    expect(merged.exitCode, merged.stderr).toBe(0);
    const mergeTip = (await git(sb, repo, 'rev-parse', 'main')).trim();
    expect(merged.stdout.trim()).toBe(mergeTip);
    Object.assign(expected, { 'merge-1.txt': 'merge one\n', 'merge-2.txt': 'merge two\n' });
    expect(await treeFiles(sb, repo, 'main')).toEqual(expected);
    expect((await git(sb, repo, 'log', '-1', '--format=%P', 'main')).trim()).toBe(`${mainBefore} ${branchTip}`);
    expect(await subjects(sb, repo, '-1')).toEqual(["Merge branch 'feat-m'"]);

    const squashed = await fleet.cli('finish', String(tasks.squash.id), '--squash', '--json');
    expect(squashed.exitCode, squashed.stderr).toBe(0);
    const doc = JSON.parse(squashed.stdout) as { plan: { mode: string; commits: Array<{ subject: string }> }; result: { done: boolean; merged: string; treeAsPlanned: boolean; branchDeleted: boolean } };
    expect(doc.plan.mode).toBe('squash');
    expect(doc.plan.commits.map((c) => c.subject)).toEqual(['add squash-1.txt', 'add squash-2.txt']);
    expect(doc.result).toMatchObject({ done: true, treeAsPlanned: true, branchDeleted: true });
    expect(doc.result.merged).toBe((await git(sb, repo, 'rev-parse', 'main')).trim());
    Object.assign(expected, { 'squash-1.txt': 'squash one\n', 'squash-2.txt': 'squash two\n' });
    expect(await treeFiles(sb, repo, 'main')).toEqual(expected);
    expect((await git(sb, repo, 'rev-parse', 'main^')).trim()).toBe(mergeTip); // one commit, one parent
    const message = await git(sb, repo, 'log', '-1', '--format=%B', 'main');
    expect(message).toContain(`Squashed from branch '${HOSTILE}':`);
    expect(message).toMatch(/- [0-9a-f]{12} add squash-1\.txt\n- [0-9a-f]{12} add squash-2\.txt/);

    const squashTip = (await git(sb, repo, 'rev-parse', 'main')).trim();
    const rebased = await fleet.cli('finish', String(tasks.rebase.id), '--rebase');
    expect(rebased.exitCode, rebased.stderr).toBe(0);
    Object.assign(expected, { 'rebase-1.txt': 'rebase one\n', 'rebase-2.txt': 'rebase two\n' });
    expect(await treeFiles(sb, repo, 'main')).toEqual(expected);
    expect(await subjects(sb, repo, `${squashTip}..main`)).toEqual(['add rebase-2.txt', 'add rebase-1.txt']); // linear on top
    expect((await git(sb, repo, 'rev-list', '--merges', `${squashTip}..main`)).trim()).toBe('');

    // Every task, worktree and branch is gone; the list of made worktrees is empty again.
    expect(await fleet.ls()).toEqual([]);
    expect(await worktreePaths(sb, repo)).toEqual([repo]);
    expect((await git(sb, repo, 'branch', '--format=%(refname:short)')).trim()).toBe('main');
    const registry = JSON.parse(await readFile(join(sb.env.FLEETCOM_CONFIG_DIR!, 'worktrees.json'), 'utf8')) as { worktrees: unknown[] };
    expect(registry.worktrees).toEqual([]);
    expect(await git(sb, repo, 'status', '--porcelain')).toBe('');
  });
});
