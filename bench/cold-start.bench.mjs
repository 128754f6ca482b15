// CLI cold start: wall time from spawning `node dist/cli.js …` to its exit, for `--version`
// (no fleet needed) and `ls --json` (against a running headless fleet of 10 plain tasks on a
// private tmux server), against `node -e 0` (the floor of any Node CLI), all three in the
// world's environment. The three are interleaved so that the machine's noise hits them alike.
import { writeFileSync } from 'node:fs';
import { nodeStart } from './lib/baselines.mjs';
import { createWorld, recipeText } from './lib/world.mjs';

// The goal was `node -e 0` + 30 ms where node started in 22 ms (quiet): (22 + 30) / 22.
const RATIO = 2.3;

export async function run({ smoke = false } = {}) {
  const [TRIALS, WARMUP] = smoke ? [3, 1] : [15, 2];
  const w = await createWorld();
  try {
    await w.startFleet();
    const file = w.path('ten.json');
    writeFileSync(file, recipeText('ten', w.path('work'), Array.from({ length: 10 }, () => 'sleep 100000')));
    const load = await w.cli(['load', file]);
    if (load.code !== 0) throw new Error(`load failed: ${load.stderr}`);
    const base = [];
    const version = [];
    const ls = [];
    const checked = (r, what) => {
      if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${r.stderr}`);
      return r.ms;
    };
    for (let i = 0; i < WARMUP + TRIALS; i++) {
      const b = await nodeStart(w);
      const v = checked(await w.cli(['--version']), 'fleetcom --version');
      const l = await w.cli(['ls', '--json']);
      checked(l, 'fleetcom ls --json');
      if (JSON.parse(l.stdout).length !== 10) throw new Error(`ls --json listed ${JSON.parse(l.stdout).length} tasks, not 10`);
      if (i < WARMUP) continue;
      base.push(b);
      version.push(v);
      ls.push(l.ms);
    }
    return [
      { figure: 'cold start: fleetcom --version', unit: 'ms', samples: version, baseline: base, target: { ratio: RATIO }, note: 'baseline: node -e 0' },
      { figure: 'cold start: fleetcom ls --json (10 tasks)', unit: 'ms', samples: ls, baseline: base, target: { ratio: RATIO }, note: 'baseline: node -e 0' },
    ];
  } finally {
    await w.close();
  }
}
