// `fleetcom save --output FILE` of a 200-task fleet (160 plain commands, 20 claude and 20 codex
// stand-ins idling, so the agents go through the resume precedence), process start to exit
// (save exits right after renaming the file into place; its existence and size are checked),
// against `fleetcom --version`, interleaved.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createWorld, recipeText } from './lib/world.mjs';

// Smoke: a smaller fleet, so that CI's smoke run stays under a minute.
let TASKS = 200;
let AGENTS = 20;
// The goal was `--version` + 60 ms where `--version` took 41 ms (quiet): (41 + 60) / 41.
const RATIO = 2.4;

export async function run({ smoke = false } = {}) {
  const [TRIALS, WARMUP] = smoke ? [2, 0] : [10, 1];
  [TASKS, AGENTS] = smoke ? [20, 2] : [200, 20];
  const w = await createWorld();
  try {
    await w.startFleet();
    const commands = Array.from({ length: TASKS }, (_, i) => (i < AGENTS ? 'claude' : i < 2 * AGENTS ? 'codex' : `sleep ${100000 + i}`));
    const file = w.path('two-hundred.json');
    writeFileSync(file, recipeText('two-hundred', w.path('work'), commands));
    const load = await w.cli(['load', file]);
    if (load.code !== 0) throw new Error(`load failed: ${load.stderr}`);
    const out = w.path('saved.json');
    const base = [];
    const save = [];
    for (let i = 0; i < WARMUP + TRIALS; i++) {
      const v = await w.cli(['--version']);
      rmSync(out, { force: true });
      const s = await w.cli(['save', '--output', out]);
      if (s.code !== 0 || !existsSync(out)) throw new Error(`save failed (${s.code}): ${s.stderr}`);
      const saved = JSON.parse(readFileSync(out, 'utf8'));
      const count = Object.values(saved.dirs).reduce((n, entries) => n + entries.length, 0);
      if (count !== TASKS) throw new Error(`save wrote ${count} tasks, not ${TASKS}`);
      if (i < WARMUP) continue;
      base.push(v.ms);
      save.push(s.ms);
    }
    return [{
      figure: `fleetcom save (${TASKS} tasks)`, unit: 'ms', samples: save, baseline: base, target: { ratio: RATIO },
      note: 'baseline: fleetcom --version; process start to exit, which follows the rename',
    }];
  } finally {
    await w.close();
  }
}
