// `fleetcom finish --merge` against what it stands for, done by hand in the same run: `git
// merge` in the main checkout, `git worktree remove`, `git branch -d` and `fleetcom rm` of the
// task (the by-hand path must remove the task too). What fleetcom adds is every check before
// anything changes — git's version, the worktree list, both checkouts' status, merge-tree for
// the merge, the commits listed — and the merged check before the branch goes: a dozen git
// processes of a few ms each; goal ≤ 3 of the baseline.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorld, runTimed } from './lib/world.mjs';

export async function run({ smoke = false } = {}) {
  const [TRIALS, WARMUP] = smoke ? [2, 0] : [12, 2];
  const w = await createWorld();
  try {
    writeFileSync(join(w.env.HOME, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n');
    const repo = w.path('work');
    const git = async (cwd, ...args) => {
      const r = await runTimed('git', args, { env: w.env, cwd });
      if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
      return r;
    };
    const must = (r, what) => {
      if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${r.stderr}`);
      return r;
    };
    await git(repo, 'init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README'), 'bench\n');
    await git(repo, 'add', 'README');
    await git(repo, 'commit', '-q', '-m', 'init');
    const fleet = await w.startFleet();
    /** A worktree task on `branch` with one commit of its own, main moved on meanwhile (a real merge). */
    const task = async (branch) => {
      const r = must(await w.cli(['run', '--cwd', repo, '--worktree', branch, '--', `sleep ${100000}`]), 'run --worktree');
      const id = r.stdout.trim();
      const listed = JSON.parse(must(await w.cli(['ls', '--json']), 'ls').stdout).find((t) => String(t.id) === id);
      const dir = listed.worktree.path;
      writeFileSync(join(dir, `${branch}.txt`), `${branch}\n`);
      await git(dir, 'add', '.');
      await git(dir, 'commit', '-q', '-m', `work of ${branch}`);
      return { id, dir };
    };
    const samples = [];
    const baseline = [];
    for (let i = 0; i < WARMUP + TRIALS; i++) {
      const byHand = await task(`h${i}`);
      const finished = await task(`f${i}`);
      writeFileSync(join(repo, `main-${i}.txt`), `${i}\n`);
      await git(repo, 'add', '.');
      await git(repo, 'commit', '-q', '-m', `main ${i}`);
      const merge = await git(repo, 'merge', '-q', '--no-edit', `h${i}`);
      const rm = must(await w.cli(['rm', byHand.id]), 'rm');
      const remove = await git(repo, 'worktree', 'remove', byHand.dir);
      const branch = await git(repo, 'branch', '-q', '-d', `h${i}`);
      const finish = must(await w.cli(['finish', finished.id, '--merge']), 'finish --merge');
      if (i < WARMUP) continue;
      baseline.push(merge.ms + rm.ms + remove.ms + branch.ms);
      samples.push(finish.ms);
    }
    await w.stopFleet(fleet);
    return [{
      figure: 'finish --merge (checks, merge, task, worktree, branch)', unit: 'ms', samples, baseline, target: { ratio: 3 },
      note: 'baseline: git merge + fleetcom rm + git worktree remove + git branch -d of another such task, same trial',
    }];
  } finally {
    await w.close();
  }
}
