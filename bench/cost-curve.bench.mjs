// How fleetcom's costs grow with the fleet: at 10, 100 and 500 plain tasks (smoke: 5 and 10),
// each on a fresh headless fleet of its own private tmux server —
//   load:     `fleetcom load FILE` of the N tasks, process start to exit (windows counted);
//   ls:       `fleetcom ls --json`, process start to exit (records counted);
//   save:     `fleetcom save --output FILE`, process start to exit (entries counted);
//   exit→id:  a claude stand-in exits beside the N tasks → the supervisor logs its exit hint;
//   idle CPU: the supervisor and every tmux client it starts, % of one core, while N idle;
//   RSS:      the supervisor's VmRSS meanwhile;
//   redraw:   one dashboard frame of N rows (dist/dashboard/view.js render, in process, 160×48).
// Each figure names its task count. Then, per measure, the cost per task at each size and the
// growth from the middle size M to the largest L: the marginal cost per task between them,
// (cost(L) − cost(M)) / (L − M), over the average cost per task at M, cost(M) / M. A cost that
// is linear with a fixed part gives ≤ 1 (the fixed part makes the average the larger); one
// that grows faster than linearly gives more, and over 1.5 it is flagged (a FAIL verdict).
// Comparing with M's average rather than the marginal cost below M keeps one noisy small
// figure from flagging a linear curve on a loaded machine, and so does taking each size's
// least sample (the one the machine's other work delayed least) as its cost.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { render } from '../dist/dashboard/view.js';
import { initialUi } from '../dist/dashboard/model.js';
import { timedExit } from './lib/exit.mjs';
import { rssMb, TICKS_PER_S, treeTicks } from './lib/proc.mjs';
import { createWorld, recipeText, sleep } from './lib/world.mjs';

const FULL = { sizes: [10, 100, 500], trials: 3, exits: 3, idleS: 5, settleMs: 2_000, redraws: 20 };
const SMOKE = { sizes: [5, 10], trials: 1, exits: 1, idleS: 1, settleMs: 300, redraws: 3 };
const SUPER_LINEAR = 1.5;

const checked = (r, what) => {
  if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${r.stderr}`);
  return r;
};

async function atSize(w, n, size) {
  const fleet = await w.startFleet({ name: `n${n}` });
  const file = w.path(`tasks-${n}.json`);
  writeFileSync(file, recipeText(`tasks-${n}`, w.path('work'), Array.from({ length: n }, (_, i) => `sleep ${100000 + i}`)));
  const load = checked(await w.cli(['load', file]), `load of ${n}`);
  if (w.windowCount(fleet.name) !== n + 1) throw new Error(`load made ${w.windowCount(fleet.name) - 1} windows, not ${n}`);
  const figures = { load: [load.ms], ls: [], save: [], exit: [], cpu: [], rss: [], redraw: [] };
  for (let i = 0; i < size.trials; i++) {
    const ls = checked(await w.cli(['ls', '--json']), 'ls --json');
    if (JSON.parse(ls.stdout).length !== n) throw new Error(`ls --json listed ${JSON.parse(ls.stdout).length} tasks, not ${n}`);
    figures.ls.push(ls.ms);
    const out = w.path(`saved-${n}-${i}.json`);
    const save = checked(await w.cli(['save', '--output', out]), 'save');
    figures.save.push(save.ms);
  }
  // The exited stand-ins are tasks too: idle is measured first, on exactly n tasks.
  await sleep(size.settleMs);
  const t0 = treeTicks(fleet.pid);
  const began = Date.now();
  for (let s = 0; s < size.idleS; s++) {
    await sleep(began + (s + 1) * 1000 - Date.now());
    figures.rss.push(rssMb(fleet.pid));
  }
  figures.cpu.push(((treeTicks(fleet.pid) - t0) / TICKS_PER_S / ((Date.now() - began) / 1000)) * 100);
  for (let i = 0; i < size.exits; i++) figures.exit.push(await timedExit(w, fleet, `${n}-${i}`));
  const rows = Array.from({ length: n }, (_, i) => row(i + 1, w.path('work')));
  for (let i = 0; i < size.redraws; i++) {
    const start = performance.now();
    render({ rows, ui: initialUi, home: w.path('home'), width: 160, height: 48 });
    figures.redraw.push(performance.now() - start);
  }
  await w.stopFleet(fleet);
  return figures;
}

function row(id, cwd) {
  const state = id % 3 === 0 ? 'exited' : id % 3 === 1 ? 'running' : 'idle';
  return {
    id, run: 0, state, exitStatus: state === 'exited' ? 0 : null, tagged: id % 7 === 0, label: `sleep ${100000 + id}`, name: null,
    command: `sleep ${100000 + id}`, group: id % 2 ? 'a' : null, cwd, line: `line ${id} of output`, ageMs: 1000 * id, windowId: `@${id}`, paneId: `%${id}`,
  };
}

const MEASURES = [
  ['load', 'fleetcom load', 'ms'],
  ['ls', 'fleetcom ls --json', 'ms'],
  ['save', 'fleetcom save', 'ms'],
  ['exit', 'exit -> id', 'ms'],
  ['cpu', 'idle CPU (supervisor + its tmux clients)', '% core'],
  ['rss', 'idle RSS (supervisor)', 'MB'],
  ['redraw', 'one dashboard redraw', 'ms'],
];

export async function run({ smoke = false } = {}) {
  const size = smoke ? SMOKE : FULL;
  const bySize = new Map();
  for (const n of size.sizes) {
    const w = await createWorld();
    try {
      bySize.set(n, await atSize(w, n, size));
    } finally {
      await w.close();
    }
  }
  const results = [];
  for (const [key, label, unit] of MEASURES) {
    for (const n of size.sizes) results.push({ figure: `curve: ${label} (${n} tasks)`, unit, samples: bySize.get(n)[key], baseline: null, target: null });
    const cost = (n) => Math.min(...bySize.get(n)[key]);
    const [mid, large] = size.sizes.slice(-2);
    const marginal = (cost(large) - cost(mid)) / (large - mid);
    const average = cost(mid) / mid;
    results.push({
      // Nothing measurable at the middle size (idle CPU of a small fleet can read 0): no growth to speak of.
      figure: `curve: ${label}, growth ${mid} -> ${large} tasks`, unit: 'x', samples: [average > 0 ? Math.max(0, marginal) / average : 0], baseline: null,
      target: { max: SUPER_LINEAR },
      note: `per task: ${size.sizes.map((n) => `${n}: ${(cost(n) / n).toPrecision(3)}`).join(', ')} ${unit}; marginal ${mid} -> ${large}: ${marginal.toPrecision(3)} ${unit}; over ${SUPER_LINEAR} means faster than linear`,
    });
  }
  return results;
}
