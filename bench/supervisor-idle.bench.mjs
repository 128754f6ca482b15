// The supervisor's cost while 50 tasks idle, over 30 s, headless and with the dashboard (the
// supervisor's pane is a tmux pane, so `up` without --headless draws it there):
//   CPU: the supervisor's own user+system time plus that of every child it started — the tmux
//        clients it ran and waited for (cutime/cstime in /proc/<pid>/stat) and those still
//        running (its waiting `tmux wait-for`, via /proc/<pid>/task/*/children) — in CPU ms a
//        second, one sample per 5 s window, judged on their mean (the 30 s average), against
//        the calibration (bench/lib/baselines.mjs): the CPU ms of one tmux client call made
//        by Node, measured in the same run. The ratio is "tmux calls' worth of CPU a second".
//   RSS: VmRSS of the supervisor, sampled every second, against an idle Node's.
//   The headless CPU also against the same fleet with FLEETCOM_TMUX_CONTROL=off (a tmux client
//   per call, the reconciliation every 2 s): the control connection must cost no more.
// The tmux server's own CPU over the same time is given in the note (it is tmux's, not ours).
import { writeFileSync } from 'node:fs';
import { calibrate, idleNodeRss } from './lib/baselines.mjs';
import { rssMb, statTicks, TICKS_PER_S as TICK, treeTicks } from './lib/proc.mjs';
import { createWorld, recipeText, sleep } from './lib/world.mjs';

// The goal was 1 % of a core (10 CPU ms a second) where one tmux client call from Node took
// ~3.5 ms (quiet): 10 / 3.5, so about three calls' worth a second.
const CPU_RATIO = 2.9;
// The goal was 100 MB where an idle Node 20 takes ~40 MB (memory does not scale with speed).
const RSS_RATIO = 2.5;

// Smoke: a smaller fleet, so that CI's smoke run stays under a minute.
let TASKS = 50;
const FULL = { windowS: 5, windows: 6, settleMs: 3_000, calibrations: 5, calls: 40, nodes: 3 };
const SMOKE = { windowS: 1, windows: 2, settleMs: 500, calibrations: 1, calls: 5, nodes: 1 };

async function measure(w, headless, { windowS: WINDOW_S, windows: WINDOWS, settleMs: SETTLE_MS }, extra = {}) {
  const fleet = await w.startFleet({ name: `${headless ? 'headless' : 'dashboard'}${extra.FLEETCOM_TMUX_CONTROL ? '-spawning' : ''}`, headless, extra });
  const file = w.path('fifty.json');
  writeFileSync(file, recipeText('fifty', w.path('work'), Array.from({ length: TASKS }, (_, i) => `sleep ${100000 + i}`)));
  const load = await w.cli(['load', file]);
  if (load.code !== 0) throw new Error(`load failed: ${load.stderr}`);
  await sleep(SETTLE_MS);
  const serverPid = Number(w.tmux('display-message', '-p', '#{pid}').trim());
  const cpu = [];
  const rss = [];
  const server0 = statTicks(serverPid, false);
  const t0 = treeTicks(fleet.pid);
  for (let win = 0; win < WINDOWS; win++) {
    const start = treeTicks(fleet.pid);
    const began = Date.now();
    for (let s = 0; s < WINDOW_S; s++) {
      await sleep(began + (s + 1) * 1000 - Date.now());
      rss.push(rssMb(fleet.pid));
    }
    cpu.push(((treeTicks(fleet.pid) - start) / TICK / ((Date.now() - began) / 1000)) * 1000);
  }
  const seconds = WINDOW_S * WINDOWS;
  const total = ((treeTicks(fleet.pid) - t0) / TICK / seconds) * 1000;
  const server = ((statTicks(serverPid, false) - server0) / TICK / seconds) * 1000;
  await w.stopFleet(fleet);
  return { cpu, rss, total, server };
}

export async function run({ smoke = false } = {}) {
  const size = smoke ? SMOKE : FULL;
  TASKS = smoke ? 10 : 50;
  const { windowS: WINDOW_S, windows: WINDOWS } = size;
  const w = await createWorld();
  try {
    // The baselines first, on the world's server before any fleet: the same work every run.
    const calibration = [];
    for (let i = 0; i < size.calibrations; i++) calibration.push(await calibrate(w, size.calls));
    const nodeRss = [];
    for (let i = 0; i < size.nodes; i++) nodeRss.push(await idleNodeRss(w));
    const headless = await measure(w, true, size);
    const dashboard = await measure(w, false, size);
    // The same headless fleet without its control connection: a tmux client per call and the
    // reconciliation every 2 s, as the supervisor worked before it had one.
    const spawning = await measure(w, true, size, { FLEETCOM_TMUX_CONTROL: 'off' });
    const pct = (msPerS) => `${(msPerS / 10).toFixed(2)} % of a core`;
    const cal = `baseline: CPU ms of one tmux client call made by Node (calibration, ${size.calibrations} x ${size.calls} calls)`;
    return [
      { figure: `supervisor CPU, ${TASKS} idle tasks, headless`, unit: 'cpu ms/s', samples: headless.cpu, baseline: calibration, target: { ratio: CPU_RATIO, of: 'mean' },
        note: `${cal}; ${WINDOWS} windows of ${WINDOW_S} s; whole ${WINDOW_S * WINDOWS} s: ${pct(headless.total)}; the tmux server meanwhile: ${pct(headless.server)}` },
      { figure: `supervisor CPU, ${TASKS} idle tasks, dashboard`, unit: 'cpu ms/s', samples: dashboard.cpu, baseline: calibration, target: { ratio: CPU_RATIO, of: 'mean' },
        note: `whole ${WINDOW_S * WINDOWS} s: ${pct(dashboard.total)}; the tmux server meanwhile: ${pct(dashboard.server)}` },
      // Its whole time's mean, at least one tick's worth (a short smoke window can count none).
      { figure: `supervisor CPU, ${TASKS} idle tasks, headless, against the same without its tmux control connection`, unit: 'cpu ms/s', samples: headless.cpu,
        baseline: Math.max(spawning.total, 1000 / TICK / (WINDOW_S * WINDOWS)), target: { ratio: 1, of: 'mean' },
        note: `baseline: FLEETCOM_TMUX_CONTROL=off, its whole ${WINDOW_S * WINDOWS} s (${spawning.total.toFixed(2)} cpu ms/s), measured after it; its tmux server meanwhile: ${pct(spawning.server)}` },
      { figure: `supervisor RSS, ${TASKS} idle tasks, headless`, unit: 'MB', samples: headless.rss, baseline: nodeRss, target: { ratio: RSS_RATIO, of: 'max' },
        note: 'baseline: VmRSS of an idle node (setInterval only)' },
      { figure: `supervisor RSS, ${TASKS} idle tasks, dashboard`, unit: 'MB', samples: dashboard.rss, baseline: nodeRss, target: { ratio: RSS_RATIO, of: 'max' } },
    ];
  } finally {
    await w.close();
  }
}
