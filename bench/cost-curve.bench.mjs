// How fleetcom's costs grow with the fleet: at 10, 100 and 500 plain tasks (smoke: 5 and 10),
// each on a fresh headless fleet of its own private tmux server —
//   load:     `fleetcom load FILE` of the N tasks, process start to exit (windows counted);
//   ls:       `fleetcom ls --json`, process start to exit (records counted);
//   save:     `fleetcom save --output FILE`, process start to exit (entries counted);
//   exit→id:  a claude stand-in exits beside the N tasks → the supervisor logs its exit hint;
//   idle CPU: the supervisor and every tmux client it starts, CPU ms a second, while N idle;
//   RSS:      the supervisor's VmRSS meanwhile;
//   redraw:   one dashboard frame of N rows (dist/dashboard/view.js render, in process, 160×48).
// Each figure names its task count and has the baseline of its kind, measured in the same world
// (bench/lib/baselines.mjs): `node -e 0` for load, ls and save; one tmux client call for
// exit → id; the calibration (CPU ms of one tmux client call made by Node) for idle CPU; an
// idle Node's VmRSS for RSS; and for the redraw, the plain text of the same N rows cut to the
// screen (160 × 48), the least a frame of them costs. Then, per measure, the cost per task at
// each size and the growth from the middle size M to the largest L: the marginal cost per task
// between them, (cost(L) − cost(M)) / (L − M), over its baseline, the average cost per task at
// M, cost(M) / M. A cost that
// is linear with a fixed part gives ≤ 1 (the fixed part makes the average the larger); one
// that grows faster than linearly gives more, and over 1.5 it is flagged (a FAIL verdict).
// Comparing with M's average rather than the marginal cost below M keeps one noisy small
// figure from flagging a linear curve on a loaded machine, and so does taking each size's
// least sample (the one the machine's other work delayed least) as its cost.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { render } from '../dist/dashboard/view.js';
import { initialUi } from '../dist/dashboard/model.js';
import { calibrate, idleNodeRss, nodeStart, tmuxCall } from './lib/baselines.mjs';
import { timedExit } from './lib/exit.mjs';
import { rssMb, TICKS_PER_S, treeTicks } from './lib/proc.mjs';
import { createWorld, recipeText, sleep } from './lib/world.mjs';

const FULL = { sizes: [10, 100, 500], trials: 3, exits: 3, idleS: 5, settleMs: 2_000, redraws: 20, calls: 40 };
const SMOKE = { sizes: [5, 10], trials: 1, exits: 1, idleS: 1, settleMs: 300, redraws: 3, calls: 5 };
const SUPER_LINEAR = 1.5;

const checked = (r, what) => {
  if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${r.stderr}`);
  return r;
};

/** The baselines of one world, before its fleet starts: `trials` samples of each. */
async function baselines(w, size) {
  const base = { node: [], tmux: [], calibration: [], rss: [] };
  for (let i = 0; i < size.trials; i++) {
    base.node.push(await nodeStart(w));
    base.tmux.push(await tmuxCall(w));
    base.calibration.push(await calibrate(w, size.calls));
  }
  base.rss.push(await idleNodeRss(w));
  return base;
}

/** The least a frame of `rows` costs: each row's plain text cut to the width, the screen's rows joined. */
function plainFrame(rows, width, height) {
  const lines = rows.map((r) => `${r.id} ${r.state} ${r.label} ${r.cwd} ${r.line}`.padEnd(width).slice(0, width));
  return lines.slice(0, height).join('\n');
}

async function atSize(w, n, size) {
  const base = await baselines(w, size);
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
  figures.cpu.push(((treeTicks(fleet.pid) - t0) / TICKS_PER_S / ((Date.now() - began) / 1000)) * 1000);
  for (let i = 0; i < size.exits; i++) figures.exit.push(await timedExit(w, fleet, `${n}-${i}`));
  const rows = Array.from({ length: n }, (_, i) => row(i + 1, w.path('work')));
  const plain = [];
  for (let i = 0; i < size.redraws; i++) {
    let start = performance.now();
    render({ rows, ui: initialUi, home: w.path('home'), width: 160, height: 48 });
    figures.redraw.push(performance.now() - start);
    start = performance.now();
    plainFrame(rows, 160, 48);
    plain.push(performance.now() - start);
  }
  await w.stopFleet(fleet);
  const baseline = { load: base.node, ls: base.node, save: base.node, exit: base.tmux, cpu: base.calibration, rss: base.rss, redraw: plain };
  return { figures, baseline };
}

function row(id, cwd) {
  const state = id % 3 === 0 ? 'exited' : id % 3 === 1 ? 'running' : 'idle';
  return {
    id, run: 0, state, exitStatus: state === 'exited' ? 0 : null, tagged: id % 7 === 0, label: `sleep ${100000 + id}`, name: null,
    command: `sleep ${100000 + id}`, group: id % 2 ? 'a' : null, cwd, line: `line ${id} of output`, ageMs: 1000 * id, windowId: `@${id}`, paneId: `%${id}`,
  };
}

const MEASURES = [
  ['load', 'fleetcom load', 'ms', 'node -e 0'],
  ['ls', 'fleetcom ls --json', 'ms', 'node -e 0'],
  ['save', 'fleetcom save', 'ms', 'node -e 0'],
  ['exit', 'exit -> id', 'ms', 'one tmux client call'],
  ['cpu', 'idle CPU (supervisor + its tmux clients)', 'cpu ms/s', 'CPU ms of one tmux client call made by Node (calibration)'],
  ['rss', 'idle RSS (supervisor)', 'MB', 'an idle node'],
  ['redraw', 'one dashboard redraw', 'ms', 'the plain text of the rows cut to 160 x 48'],
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
  for (const [key, label, unit, baseline] of MEASURES) {
    for (const n of size.sizes) {
      const { figures, baseline: base } = bySize.get(n);
      results.push({ figure: `curve: ${label} (${n} tasks)`, unit, samples: figures[key], baseline: base[key], target: null, note: n === size.sizes[0] ? `baseline: ${baseline}` : undefined });
    }
    const cost = (n) => Math.min(...bySize.get(n).figures[key]);
    const [mid, large] = size.sizes.slice(-2);
    const marginal = (cost(large) - cost(mid)) / (large - mid);
    // Idle CPU is counted in ticks (10 ms): at the middle size it can read 0, and then the
    // average is taken as one tick's worth, the least the measure can tell from none.
    const resolution = key === 'cpu' ? 1000 / TICKS_PER_S / size.idleS : 0;
    const average = Math.max(cost(mid), resolution) / mid;
    results.push({
      figure: `curve: ${label}, growth ${mid} -> ${large} tasks`, unit: `${unit}/task`, samples: [Math.max(0, marginal)], baseline: average,
      target: { ratio: SUPER_LINEAR },
      note: `baseline: the average per task at ${mid}; per task: ${size.sizes.map((n) => `${n}: ${(cost(n) / n).toPrecision(3)}`).join(', ')} ${unit}; marginal ${mid} -> ${large}: ${marginal.toPrecision(3)} ${unit}; over ${SUPER_LINEAR} means faster than linear`,
    });
  }
  return results;
}
