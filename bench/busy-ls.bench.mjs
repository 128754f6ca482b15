// `fleetcom ls --json` while the supervisor works on 200 plain tasks: during a `fleetcom load`
// of the 200, then during the `fleetcom down` that stops them, on a fresh fleet each round.
// Each busy `ls` starts at the same moment as a `node -e 0`, and the goal is the busy ls p95 at
// most 1.6 × that node's p95: a read waits for no change (before, every ls queued
// behind the load: a 200-task load of 14.2 s held one for 13.8 s; during a down, 200 signals
// sent in one go held the control socket for 150 ms), and fleetcom's start is no further above
// Node's than the cold-start goal allows at rest.
//
// Why not against the idle ls: making 200 windows, or ending their 400 processes, takes both
// cores of a 2-core machine, and a bare `node -e 0` then starts 2.5–3 times slower at p95 than at
// rest (docs/performance.md, "Where a busy ls goes"), so no Node CLI, however fast its answer,
// stays within 2 × its idle time; only slowing every load would. The idle figures are printed
// as information beside the goal.
//
// The supervisor's answer itself, with no process start around it: the control client in this
// process asks `ls` in turn with a tmux client call (`display-message -p`) in the same moments,
// on fresh fleets of their own. A read that waited for a batch of tmux calls would take at least
// as long as one call then (the server answers a call only between its batches: 150–250 ms during
// the load); the goal is the answer's p95 at most half the call's.
//
// Busy samples are the runs that started once the change was under way (the load making
// windows; the down from its command's start) and before the change's own reply.
import { writeFileSync } from 'node:fs';
import { callSupervisor } from '../dist/control/client.js';
import { fleetRuntime } from '../dist/paths.js';
import { nodeStart, tmuxCall } from './lib/baselines.mjs';
import { percentile } from './lib/verdict.mjs';
import { createWorld, recipeText, sleep, waitFor } from './lib/world.mjs';

const RATIO = 1.6;
const ANSWER_RATIO = 0.5;

export async function run({ smoke = false } = {}) {
  // Smoke: a smaller fleet (still long enough a change for a few samples to fit in it), one round of each.
  const [TASKS, ROUNDS, ANSWER_ROUNDS, IDLE] = smoke ? [60, 1, 1, 3] : [200, 5, 2, 15];
  const w = await createWorld();
  let down = null;
  try {
    const file = w.path('busy.json');
    writeFileSync(file, recipeText('busy', w.path('work'), Array.from({ length: TASKS }, (_, i) => `sleep ${100000 + i}`)));
    /** The CLI's `ls --json`, or null when `ending` and a down has closed the socket. */
    const ls = async (label, ending = false) => {
      const r = await w.cli(['ls', '--json']);
      if (r.code === 3 && ending) return null; // its reply is on the way
      if (r.code !== 0) throw new Error(`ls --json ${label} failed (${r.code}): ${r.stderr.slice(0, 300)}`);
      return r;
    };
    const socket = fleetRuntime(w.env).socket;
    /** The supervisor's `ls` answer from this warm process: wall ms, or null once a down has closed the socket. */
    const answer = async (ending) => {
      const started = performance.now();
      try {
        const tasks = await callSupervisor(socket, { op: 'ls' });
        if (!Array.isArray(tasks)) throw new Error(`ls answered ${JSON.stringify(tasks).slice(0, 200)}`);
      } catch (error) {
        if (ending) return null;
        throw error;
      }
      return performance.now() - started;
    };
    const cliLs = async (ending, label) => (await ls(`during ${label}`, ending))?.ms ?? null;
    const idle = { ls: [], node: [], answer: [], tmux: [] };
    const busy = { load: { ls: [], node: [], ms: [] }, down: { ls: [], node: [], ms: [] } };
    const answers = { load: { answer: [], tmux: [], ms: [] }, down: { answer: [], tmux: [], ms: [] } };
    // The two measures over and over while `change` runs, keeping each that started before the
    // change's reply (one held until the change ends counts, with its wait): started at the
    // same moment when `together` (a down's work comes in bursts, and two processes started in
    // turn meet different ones), else in turn.
    const during = async (change, begun, label, ending, [[first, firstInto], [second, secondInto]], took, together) => {
      let done = null;
      const running = change.then((r) => (done = r));
      while (done === null && !(await begun())) await sleep(10);
      for (let turn = 0; done === null; turn++) {
        if (together) {
          const [a, b] = await Promise.all([first(ending, label), second(ending, label)]);
          if (a === null || b === null) break; // the down has closed the socket
          firstInto.push(a);
          secondInto.push(b);
          continue;
        }
        // The baseline first, so that a measure held until the change's end has one beside it.
        const [measure, into] = turn % 2 === 0 ? [second, secondInto] : [first, firstInto];
        const ms = await measure(ending, label);
        if (ms === null) break;
        into.push(ms);
      }
      await running;
      if (done.code !== 0) throw new Error(`${label} failed (${done.code}): ${done.stderr.slice(0, 300)}`);
      took.push(done.ms);
    };
    const node = () => nodeStart(w);
    const tmux = () => tmuxCall(w);
    for (let round = 0; round < ROUNDS + ANSWER_ROUNDS; round++) {
      const fleet = await w.startFleet({ name: `busy${round}` });
      if (round === 0) {
        await ls('warm-up');
        for (let i = 0; i < IDLE; i++) {
          const [lsAtRest, nodeAtRest] = await Promise.all([ls('at rest'), node()]);
          idle.ls.push(lsAtRest.ms);
          idle.node.push(nodeAtRest);
          idle.tmux.push(await tmux());
          idle.answer.push(await answer(false));
        }
      }
      const cli = round < ROUNDS;
      const [loadPair, downPair, into] = cli
        ? [[[cliLs, busy.load.ls], [node, busy.load.node]], [[cliLs, busy.down.ls], [node, busy.down.node]], busy]
        : [[[answer, answers.load.answer], [tmux, answers.load.tmux]], [[answer, answers.down.answer], [tmux, answers.down.tmux]], answers];
      await during(w.cli(['load', file]), async () => w.windowCount(fleet.name) > 1, `load of ${TASKS}`, false, loadPair, into.load.ms, cli);
      if (JSON.parse((await ls('after the load')).stdout).length !== TASKS) throw new Error(`the fleet does not hold the ${TASKS} tasks loaded`);
      // From the down's start: its own client's start and the supervisor's first tmux calls
      // take longer than an ls at load, and a task's process goes only after them.
      down = w.cli(['down']);
      await during(down, async () => true, `down of ${TASKS}`, true, downPair, into.down.ms, cli);
      down = null;
      await waitFor(() => w.tmux('list-panes', '-t', `${fleet.name}:0`, '-F', '#{pane_dead}').trim() === '1', 'the supervisor to exit');
      w.tmux('kill-session', '-t', fleet.name);
    }
    const p95 = (values) => percentile(values, 95);
    const rounded = (values) => values.map(Math.round).join(', ');
    const nonEmpty = (what, named) => {
      for (const [name, values] of Object.entries(named)) {
        if (values.length === 0) throw new Error(`no ${name} ended within a ${what} of ${TASKS}`);
      }
    };
    const lsFigure = (what, { ls: lsMs, node: nodeMs, ms }) => {
      nonEmpty(what, { 'ls --json': lsMs, 'node -e 0': nodeMs });
      return {
        figure: `ls --json during a ${what} of ${TASKS} (p95 vs node -e 0 p95 beside it)`, unit: 'ms', samples: lsMs, baseline: nodeMs,
        target: { ratio: RATIO, of: 'p95', base: 'p95' },
        note: `goal: p95 ≤ ${RATIO} × the p95 of node -e 0 started with each during the same ${what}s (${ROUNDS}: ` +
          `${rounded(ms)} ms; ${lsMs.length} ls, ${nodeMs.length} node). At rest: ls p95 ${Math.round(p95(idle.ls))} ms, ` +
          `node -e 0 p95 ${Math.round(p95(idle.node))} ms; (each also started with the other); so the busy ls p95 is ${(p95(lsMs) / p95(idle.ls)).toFixed(2)} × its ` +
          `idle p95 and node's ${(p95(nodeMs) / p95(idle.node)).toFixed(2)} × its own`,
      };
    };
    const answerFigure = (what, { answer: answerMs, tmux: tmuxMs, ms }) => {
      nonEmpty(what, { 'answer to ls': answerMs, 'tmux call': tmuxMs });
      return {
        figure: `the supervisor's answer to ls during a ${what} of ${TASKS} (p95 vs a tmux call's p95 beside it)`, unit: 'ms',
        samples: answerMs, baseline: tmuxMs, target: { ratio: ANSWER_RATIO, of: 'p95', base: 'p95' },
        note: `goal: p95 ≤ ${ANSWER_RATIO} × the p95 of tmux display-message -p run in turn with it during the same ${what}s ` +
          `(${ANSWER_ROUNDS}: ${rounded(ms)} ms; ${answerMs.length} answers, ${tmuxMs.length} calls): a read waits for no tmux batch. ` +
          `At rest, the fleet empty: answer p95 ${p95(idle.answer).toFixed(1)} ms, tmux call p95 ${p95(idle.tmux).toFixed(1)} ms`,
      };
    };
    return [lsFigure('load', busy.load), lsFigure('down', busy.down), answerFigure('load', answers.load), answerFigure('down', answers.down)];
  } finally {
    await down?.catch(() => undefined);
    await w.close();
  }
}
