// Starting a fleet of 50 plain tasks from a session file, until every window exists, against
// tmux alone: a loop of 50 `tmux new-window -d` (one client each, as a script would) in the
// same server. Two ways in, each on a fresh headless fleet per trial:
//   load: `fleetcom load FILE` into a running fleet, process start to exit (it exits once the
//         supervisor has made every window; the count is checked);
//   up:   `fleetcom up --headless FILE` from the tmux command that starts it to the
//         supervisor's "fleet up" log line (written after the load), node's start included.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createWorld, recipeText } from './lib/world.mjs';

// Smoke: a smaller fleet, so that CI's smoke run stays under a minute.
let TASKS = 50;
const RATIO = 1.2;

export async function run({ smoke = false } = {}) {
  const TRIALS = smoke ? 1 : 5;
  TASKS = smoke ? 10 : 50;
  const w = await createWorld();
  try {
    const file = w.path('fifty.json');
    writeFileSync(file, recipeText('fifty', w.path('work'), Array.from({ length: TASKS }, (_, i) => `sleep ${100000 + i}`)));
    const base = [];
    const load = [];
    const up = [];
    for (let i = 0; i < TRIALS; i++) {
      // tmux alone.
      w.tmux('new-session', '-d', '-s', 'base', '-c', w.path('work'), 'sh');
      const start = performance.now();
      for (let k = 0; k < TASKS; k++) {
        const r = await w.tmuxAsync('new-window', '-d', '-t', 'base:', '-c', w.path('work'), `sleep ${100000 + k}`);
        if (r.code !== 0) throw new Error(`tmux new-window failed: ${r.stderr}`);
      }
      base.push(performance.now() - start);
      if (w.windowCount('base') !== TASKS + 1) throw new Error('the baseline did not make every window');
      w.tmux('kill-session', '-t', 'base');

      // fleetcom load.
      const fleet = await w.startFleet({ name: `load${i}` });
      const r = await w.cli(['load', file]);
      if (r.code !== 0) throw new Error(`load failed: ${r.stderr}`);
      if (w.windowCount(fleet.name) !== TASKS + 1) throw new Error(`load made ${w.windowCount(fleet.name) - 1} windows`);
      load.push(r.ms);
      await w.stopFleet(fleet);

      // fleetcom up FILE.
      const upFleet = await w.startFleet({ name: `up${i}`, args: [file] });
      if (w.windowCount(upFleet.name) !== TASKS + 1) throw new Error(`up made ${w.windowCount(upFleet.name) - 1} windows`);
      up.push(upFleet.upAt - upFleet.startedAt);
      await w.stopFleet(upFleet);
    }
    return [
      { figure: `fleet start: fleetcom load (${TASKS} plain tasks)`, unit: 'ms', samples: load, baseline: base, target: { ratio: RATIO },
        note: `baseline: ${TASKS} x tmux new-window -d, one client each, same server` },
      { figure: `fleet start: fleetcom up --headless FILE (${TASKS})`, unit: 'ms', samples: up, baseline: base, target: { ratio: RATIO },
        note: "up: from the tmux command starting it to its 'fleet up' log line, node's start and the supervisor's setup included" },
    ];
  } finally {
    await w.close();
  }
}
