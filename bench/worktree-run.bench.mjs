// `fleetcom run --worktree BRANCH` against what it stands for, done by hand in the same run:
// `git worktree add -b BRANCH PATH` followed by a plain `fleetcom run --cwd PATH`. What
// fleetcom adds is its checks before anything is made (git check-ref-format, the repository,
// its worktrees and the branch: a few git processes of a few ms each), the fleet's status
// asked first and the list of made worktrees written; goal ≤ 1.5 of the baseline.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWorld, runTimed } from './lib/world.mjs';

export async function run({ smoke = false } = {}) {
  const [TRIALS, WARMUP] = smoke ? [2, 0] : [12, 2];
  const w = await createWorld();
  try {
    writeFileSync(join(w.env.HOME, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n');
    const repo = w.path('work');
    const git = async (...args) => {
      const r = await runTimed('git', args, { env: w.env, cwd: repo });
      if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
      return r;
    };
    await git('init', '-q', '-b', 'main');
    writeFileSync(join(repo, 'README'), 'bench\n');
    await git('add', 'README');
    await git('commit', '-q', '-m', 'init');
    const fleet = await w.startFleet();
    const samples = [];
    const baseline = [];
    const must = (r, what) => {
      if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${r.stderr}`);
      return r;
    };
    for (let i = 0; i < WARMUP + TRIALS; i++) {
      const byHand = join(w.dir, 'by-hand', `b${i}`);
      const add = await git('worktree', 'add', '-q', '-b', `b${i}`, byHand);
      const plain = must(await w.cli(['run', '--cwd', byHand, '--', `sleep ${100000 + i}`]), 'run --cwd');
      const wt = must(await w.cli(['run', '--cwd', repo, '--worktree', `w${i}`, '--', `sleep ${200000 + i}`]), 'run --worktree');
      if (i < WARMUP) continue;
      baseline.push(add.ms + plain.ms);
      samples.push(wt.ms);
    }
    await w.stopFleet(fleet);
    return [{
      figure: 'run --worktree BRANCH (a new branch)', unit: 'ms', samples, baseline, target: { ratio: 1.5 },
      note: 'baseline: git worktree add -b of another branch + a plain fleetcom run --cwd in it, same trial',
    }];
  } finally {
    await w.close();
  }
}
