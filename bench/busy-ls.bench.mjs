// `fleetcom ls --json` while a `fleetcom load` of 200 plain tasks is in flight, against an idle
// `ls --json` of the same fleet in the same run. Reads are answered from the supervisor's state
// while a change runs; before that, every ls queued behind the load and answered after it (a
// 200-task load of 14.2 s held an ls for 13.8 s). Busy samples are the ls runs that started
// once the load had begun making windows and ended before the load's own reply; the goal is
// the busy p95 at most twice the idle p95 of the same run (a tail against a tail).
import { writeFileSync } from 'node:fs';
import { percentile } from './lib/verdict.mjs';
import { createWorld, recipeText } from './lib/world.mjs';

const RATIO = 2;

export async function run({ smoke = false } = {}) {
  // Smoke: a shorter load (still long enough for a few ls to fit in it) and fewer idle samples.
  const [TASKS, IDLE] = smoke ? [60, 3] : [200, 20];
  const w = await createWorld();
  try {
    const fleet = await w.startFleet();
    const ls = async () => {
      const r = await w.cli(['ls', '--json']);
      if (r.code !== 0) throw new Error(`ls --json failed (${r.code}): ${r.stderr.slice(0, 300)}`);
      return r;
    };
    const idle = [];
    await ls(); // warm-up
    for (let i = 0; i < IDLE; i++) idle.push((await ls()).ms);

    const file = w.path('busy.json');
    writeFileSync(file, recipeText('busy', w.path('work'), Array.from({ length: TASKS }, (_, i) => `sleep ${100000 + i}`)));
    let loaded = null;
    const load = w.cli(['load', file]).then((r) => (loaded = r));
    while (loaded === null && w.windowCount(fleet.name) <= 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const busy = [];
    while (loaded === null) {
      const r = await ls();
      if (loaded === null) busy.push(r.ms); // ended before the load did: it ran beside it
    }
    await load;
    if (loaded.code !== 0) throw new Error(`load failed (${loaded.code}): ${loaded.stderr.slice(0, 300)}`);
    if (busy.length === 0) throw new Error(`no ls --json ended within the load of ${TASKS} (${Math.round(loaded.ms)} ms)`);
    return [{
      figure: `ls --json during a load of ${TASKS} (p95 vs idle)`, unit: 'ms', samples: busy, baseline: idle,
      target: { ratio: RATIO, of: 'p95', base: 'p95' },
      note: `goal: p95 ≤ ${RATIO} × the idle ls --json p95 of the same run (${Math.round(percentile(idle, 95))} ms); ` +
        `busy: each ls that started once the load's windows began and ended before its reply (load took ${Math.round(loaded.ms)} ms)`,
    }];
  } finally {
    await w.close();
  }
}
