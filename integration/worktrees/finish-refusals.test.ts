// What `fleetcom finish` refuses — a conflict (in every mode), a dirty worktree, a dirty
// target checkout, a git older than 2.38 — changes nothing: every ref, worktree, index entry
// and file is as it was, the task still runs. A merge that fails half way (a pre-merge-commit
// hook saying no) is aborted and deletes nothing; a target that moves during a rebase says how
// to put the rebased branch back.
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { commitFile, git, gitOnPath, makeRepo, runInWorktree } from './kit.js';

/** Every file under `dir` (its .git left out) with its mode and a digest of its content. */
function files(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel)).sort().flatMap((name) => {
    if (name === '.git') return [];
    const path = join(dir, rel, name);
    const stat = statSync(path);
    if (stat.isDirectory()) return files(dir, join(rel, name));
    return [`${join(rel, name)} ${stat.mode.toString(8)} ${createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16)}`];
  });
}

/**
 * Refs, worktrees, and of each checkout its HEAD, index entries, the files of an operation in
 * progress (MERGE_HEAD, rebase-merge, SQUASH_MSG …) and its files. ORIG_HEAD is left out: git
 * writes it at the start of any merge, an aborted one too (the test checks what it names).
 */
async function snapshot(sb: Sandbox, repo: string, checkouts: readonly string[]): Promise<string[]> {
  const out = [await git(sb, repo, 'for-each-ref', '--format=%(refname) %(objectname)'), await git(sb, repo, 'worktree', 'list', '--porcelain')];
  for (const dir of checkouts) {
    const gitDir = (await git(sb, dir, 'rev-parse', '--absolute-git-dir')).trim();
    out.push(dir, await git(sb, dir, 'rev-parse', 'HEAD'), await git(sb, dir, 'ls-files', '--stage'), readdirSync(gitDir).filter((n) => /_HEAD$|^rebase|_MSG$/.test(n) && n !== 'ORIG_HEAD').join(','), ...files(dir));
  }
  return out;
}

async function refused(fleet: Fleet, id: number, ...flags: string[]): Promise<string> {
  const r = await fleet.cli('finish', String(id), ...flags);
  expect(r.exitCode, `${flags.join(' ')}: ${r.stderr}`).toBe(1);
  expect(r.stderr).toContain('refused, nothing changed:');
  return r.stderr;
}

describe('fleetcom finish refuses, and a failed step deletes nothing', () => {
  it('a conflict, a dirty worktree, a dirty target and an old git change nothing; --commit commits first', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const clash = await runInWorktree(fleet, repo, 'clash');
    await commitFile(sb, clash.cwd, 'README', 'hello from the branch\n', 'branch README');
    await commitFile(sb, repo, 'README', 'hello from main\n', 'main README');
    const before = await snapshot(sb, repo, [repo, clash.cwd]);
    for (const mode of ['--merge', '--squash', '--rebase']) {
      const said = await refused(fleet, clash.id, mode);
      expect(said).toMatch(mode === '--rebase' ? /rebasing clash onto main conflicts at [0-9a-f]{12} "branch README" in: README/ : /merging clash into main conflicts in: README/);
    }
    expect(await snapshot(sb, repo, [repo, clash.cwd])).toEqual(before);

    const dirty = await runInWorktree(fleet, repo, 'dirty');
    await commitFile(sb, dirty.cwd, 'work.txt', 'committed\n');
    await writeFile(join(dirty.cwd, 'notes.txt'), 'not committed\n');
    const dirtyBefore = await snapshot(sb, repo, [repo, dirty.cwd]);
    expect(await refused(fleet, dirty.id)).toContain(`the worktree ${dirty.cwd} has 1 uncommitted file(s) (notes.txt); commit them, or --commit MSG commits them first`);

    // The target's checkout: a tracked change refuses, and so does an untracked file the merge would overwrite.
    await writeFile(join(repo, 'README'), 'edited in main, not committed\n');
    expect(await refused(fleet, dirty.id, '--commit', 'notes')).toMatch(/the checkout of main .* has 1 uncommitted change\(s\) \(README\)/);
    await git(sb, repo, 'checkout', '--', 'README');
    await writeFile(join(repo, 'work.txt'), 'untracked in main\n');
    expect(await refused(fleet, dirty.id, '--commit', 'notes')).toContain('has untracked files the merge would overwrite: work.txt');
    await rm(join(repo, 'work.txt'));

    // A git older than 2.38 is named and refused (a wrapper answering `git version` as 2.37 would).
    const oldGit = await sb.mkdir('old-git');
    await writeFile(join(oldGit, 'git'), `#!/bin/sh\n[ "$1" = version ] && { echo 'git version 2.37.4'; exit 0; }\nexec '${gitOnPath(sb)}' "$@"\n`);
    chmodSync(join(oldGit, 'git'), 0o755);
    const old = await fleet.cliIn(sb.dir, { ...sb.env, PATH: `${oldGit}:${sb.env.PATH}` }, 'finish', String(dirty.id), '--commit', 'notes');
    expect(old.exitCode).toBe(1);
    expect(old.stderr).toContain('git 2.37.4 is older than 2.38, the first with git merge-tree --write-tree');
    expect(await snapshot(sb, repo, [repo, dirty.cwd])).toEqual(dirtyBefore);

    // --commit commits the work first (the user's git, its hooks: one that adds a trailer makes
    // a commit other than the plan's preview of it), then squashes it: the message lists the
    // commit made.
    const hooks = join(repo, '.git', 'hooks');
    await mkdir(hooks, { recursive: true });
    await writeFile(join(hooks, 'commit-msg'), '#!/bin/sh\nprintf "\\nReviewed-by: a hook\\n" >> "$1"\n');
    chmodSync(join(hooks, 'commit-msg'), 0o755);
    const done = await fleet.cli('finish', String(dirty.id), '--commit', 'notes', '--squash');
    expect(done.exitCode, done.stderr).toBe(0);
    expect(await git(sb, repo, 'show', 'main:notes.txt')).toBe('not committed\n');
    const made = /committed 1 file\(s\) on dirty as ([0-9a-f]{12})/.exec(done.stderr)?.[1];
    expect(made, done.stderr).toBeDefined();
    expect(await git(sb, repo, 'log', '-1', '--format=%B', 'main')).toContain(`- ${made} notes`);
    expect((await fleet.ls()).map((t) => t.id)).toEqual([clash.id]);
  });

  it('a target that moves while the branch is rebased stops the finish, saying how to put the branch back', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const task = await runInWorktree(fleet, repo, 'moving');
    await commitFile(sb, task.cwd, 'feature.txt', 'feature\n');
    await commitFile(sb, repo, 'other.txt', 'main moved\n');
    const before = (await git(sb, repo, 'rev-parse', 'moving')).trim();
    // git runs post-rewrite after the rebase: someone commits on main meanwhile.
    const hooks = join(repo, '.git', 'hooks');
    await mkdir(hooks, { recursive: true });
    await writeFile(join(hooks, 'post-rewrite'), `#!/bin/sh\nunset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_PREFIX\ngit -C '${repo}' commit -q --allow-empty -m 'meanwhile'\n`);
    chmodSync(join(hooks, 'post-rewrite'), 0o755);
    const r = await fleet.cli('finish', String(task.id), '--rebase');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`is no longer on main at`);
    expect(r.stderr).toContain(`; nothing was merged or deleted, but moving was rebased onto it: git -C ${task.cwd} reset --keep ${before.slice(0, 12)} puts it back, then finish again`);
    expect(await git(sb, repo, 'log', '-1', '--format=%s', 'main')).toBe('meanwhile\n');
    expect((await fleet.task(task.id)).state).not.toBe('exited');
    expect((await git(sb, repo, 'branch', '--list', 'moving')).trim()).not.toBe('');
  });

  it('a merge that a pre-merge-commit hook stops is aborted: the task, its worktree, its branch and main stay', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const task = await runInWorktree(fleet, repo, 'hooked');
    await commitFile(sb, task.cwd, 'feature.txt', 'feature\n');
    await commitFile(sb, repo, 'other.txt', 'main moved\n');
    const hooks = join(repo, '.git', 'hooks');
    await mkdir(hooks, { recursive: true });
    await writeFile(join(hooks, 'pre-merge-commit'), '#!/bin/sh\necho "policy: no merges today" >&2\nexit 1\n');
    chmodSync(join(hooks, 'pre-merge-commit'), 0o755);
    const before = await snapshot(sb, repo, [repo, task.cwd]);
    const r = await fleet.cli('finish', String(task.id), '--merge');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('policy: no merges today');
    expect(r.stderr).toContain('the merge was aborted and main is as it was; nothing was deleted');
    expect(r.stderr).not.toContain('stopped and removed');
    expect(await snapshot(sb, repo, [repo, task.cwd])).toEqual(before);
    expect(await git(sb, repo, 'rev-parse', 'ORIG_HEAD')).toBe(await git(sb, repo, 'rev-parse', 'main'));
    expect((await fleet.task(task.id)).state).not.toBe('exited');
  });
});
