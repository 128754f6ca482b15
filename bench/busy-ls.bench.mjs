// `fleetcom ls --json` while the supervisor works on 200 plain tasks, against an idle
// `ls --json` of the same fleet in the same run, twice: during a `fleetcom load` of the 200,
// then during the `fleetcom down` that stops them. Reads are answered from the supervisor's
// state while a change runs; before that, every ls queued behind the load and answered after
// it (a 200-task load of 14.2 s held an ls for 13.8 s). Busy samples are the ls runs that
// started once the change was under way (the load making windows; the down from its
// command's start) and ended before the change's own reply; the goal is the busy p95 at most twice the
// idle p95 of the same run (a tail against a tail).
import { writeFileSync } from 'node:fs';
import { percentile } from './lib/verdict.mjs';
import { createWorld, recipeText, sleep } from './lib/world.mjs';

const RATIO = 2;

export async function run({ smoke = false } = {}) {
  // Smoke: a smaller fleet (still long enough a change for a few ls to fit in it) and fewer idle samples.
  const [TASKS, IDLE] = smoke ? [60, 3] : [200, 20];
  const w = await createWorld();
  let down = null;
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
    // The ls runs that ended while `change` ran, from when `begun` says it is under way.
    const during = async (change, begun, label, ending = false) => {
      let done = null;
      const running = change.then((r) => (done = r));
      while (done === null && !(await begun())) await sleep(10);
      const busy = [];
      while (done === null) {
        const r = await w.cli(['ls', '--json']);
        if (done !== null) break; // it ended after the change's reply: not beside it
        if (r.code === 3 && ending) break; // the down has closed the socket; its reply is on the way
        if (r.code !== 0) throw new Error(`ls --json during ${label} failed (${r.code}): ${r.stderr.slice(0, 300)}`);
        busy.push(r.ms);
      }
      await running;
      if (done.code !== 0) throw new Error(`${label} failed (${done.code}): ${done.stderr.slice(0, 300)}`);
      if (busy.length === 0) throw new Error(`no ls --json ended within the ${label} (${Math.round(done.ms)} ms)`);
      return { busy, ms: done.ms };
    };
    const loaded = await during(w.cli(['load', file]), async () => w.windowCount(fleet.name) > 1, `load of ${TASKS}`);
    if (JSON.parse((await ls()).stdout).length !== TASKS) throw new Error(`the fleet does not hold the ${TASKS} tasks loaded`);
    // From the down's start: its own client's start and the supervisor's first tmux calls
    // take longer than an ls at load, and a task's process goes only after them.
    const stopping = async () => true;
    down = w.cli(['down']);
    const stopped = await during(down, stopping, `down of ${TASKS}`, true);
    const figure = (what, { busy, ms }) => ({
      figure: `ls --json during a ${what} of ${TASKS} (p95 vs idle)`, unit: 'ms', samples: busy, baseline: idle,
      target: { ratio: RATIO, of: 'p95', base: 'p95' },
      note: `goal: p95 ≤ ${RATIO} × the idle ls --json p95 of the same run (${Math.round(percentile(idle, 95))} ms); ` +
        `busy: each ls that started once the ${what} was under way and ended before its reply (it took ${Math.round(ms)} ms; ${busy.length} ls)`,
    });
    return [figure('load', loaded), figure('down', stopped)];
  } finally {
    await down?.catch(() => undefined);
    await w.close();
  }
}
