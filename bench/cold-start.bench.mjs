// CLI cold start: wall time from spawning the bin (`node dist/cli.cjs …`) to its exit, for the
// command lines a shell, a script, a tmux key and the Tab start most: `--version` (no fleet
// needed), and against a running headless fleet of 10 plain tasks on a private tmux server
// `ls --json`, `next --from-key` (the next key; nothing needs the user, so it only asks),
// `rerun --pane %N --from-key` (the rerun key, on a running task: refused after the
// supervisor's answer, so each trial is the same start and round trip without a respawn) and
// `__complete -- rerun ''` (the Tab offering task ids). `--version` is judged against `node -e 0`,
// the floor of any Node CLI; the commands that ask the supervisor against a bare Node client of
// the control socket, the floor of any client that asks it. All run in the world's environment,
// interleaved so that the machine's noise hits them alike.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '../dist/control/reply.js';
import { nodeStart } from './lib/baselines.mjs';
import { createWorld, recipeText, runTimed } from './lib/world.mjs';

// A start that asks nothing (`--version`) may cost what Node's own start costs plus 60 %: with
// node at 35 ms on the quiet 2-core machine, +21 ms for loading fleetcom's code and printing.
const RATIO = 1.6;
// A command that asks the supervisor, against the bare client of its socket (Node, its `net`
// module, a connect and one exchange: 1.2–1.45 × node here): fleetcom's client file, the looks
// that name a stopped supervisor or a socket not the user's, the reply's check, the printing and
// `ls`'s reconciliation (~1 ms over the control connection) add ~7 ms to its ~29. Against node
// alone the connect's fixed ms weigh more the faster the machine: "≤ 1.35 × node -e 0" for the
// reads, asked for, is below what any client with those checks reaches where node starts in
// 22 ms (docs/decisions.md). A read that spawned tmux again is caught by the spawn count of
// integration/fleet/tmux-link.test.ts, not here.
const ASKS_RATIO = 1.4;

export async function run({ smoke = false } = {}) {
  const [TRIALS, WARMUP] = smoke ? [3, 1] : [15, 2];
  const w = await createWorld();
  try {
    await w.startFleet();
    const file = w.path('ten.json');
    writeFileSync(file, recipeText('ten', w.path('work'), Array.from({ length: 10 }, () => 'sleep 100000')));
    const load = await w.cli(['load', file]);
    if (load.code !== 0) throw new Error(`load failed: ${load.stderr}`);
    const tasks = JSON.parse((await w.cli(['ls', '--json'])).stdout);
    if (tasks.length !== 10) throw new Error(`ls --json listed ${tasks.length} tasks, not 10`);
    const pane = tasks[0].paneId;
    const expect = (label, check) => async (r) => {
      if (!check(r)) throw new Error(`${label} failed (${r.code}): ${r.stderr.slice(0, 300)}`);
      return r.ms;
    };
    const figures = [
      ['fleetcom --version', ['--version'], expect('--version', (r) => r.code === 0)],
      ['fleetcom ls --json (10 tasks)', ['ls', '--json'], expect('ls --json', (r) => r.code === 0 && JSON.parse(r.stdout).length === 10)],
      ['fleetcom next --from-key (none needs you)', ['next', '--from-key'], expect('next', (r) => r.code === 0)],
      ['fleetcom rerun --pane %N --from-key (refused: running)', ['rerun', '--pane', pane, '--from-key'], expect('rerun', (r) => r.code === 1 && r.stderr.includes('still running'))],
      ["fleetcom __complete -- rerun '' (10 task ids)", ['__complete', '--', 'rerun', ''], expect('__complete', (r) => r.code === 0 && r.stdout.split('\n').length === 11)],
    ];
    const base = [];
    const samples = figures.map(() => []);
    // The floor of any Node client of the control socket: connect, one request, its reply
    // printed (no lock or /proc look, no check), as information beside the commands.
    const socket = join(w.env.FLEETCOM_RUNTIME_DIR, 'default.sock');
    const bare = `const s=require('net').connect(${JSON.stringify(socket)});let r='';s.setEncoding('utf8');s.on('data',(c)=>r+=c);s.on('end',()=>process.stdout.write(r));s.end(JSON.stringify({v:${PROTOCOL_VERSION},op:'status'})+'\\n')`;
    const bareSamples = [];
    for (let i = 0; i < WARMUP + TRIALS; i++) {
      const b = await nodeStart(w);
      const ms = [];
      for (const [, args, check] of figures) ms.push(await check(await w.cli(args)));
      const floor = await runTimed(process.execPath, ['-e', bare], { env: w.env, cwd: w.dir });
      if (floor.code !== 0 || !floor.stdout.includes('"ok":true')) throw new Error(`the bare socket client failed (${floor.code}): ${floor.stderr.slice(0, 300)}`);
      if (i < WARMUP) continue;
      bareSamples.push(floor.ms);
      base.push(b);
      for (const [j, m] of ms.entries()) samples[j].push(m);
    }
    return [
      ...figures.map(([label, args], j) => (args[0] !== '--version'
        ? { figure: `cold start: ${label}`, unit: 'ms', samples: samples[j], baseline: bareSamples, target: { ratio: ASKS_RATIO }, note: 'baseline: the bare Node client of the control socket below, same trials' }
        : { figure: `cold start: ${label}`, unit: 'ms', samples: samples[j], baseline: base, target: { ratio: RATIO }, note: 'baseline: node -e 0' })),
      { figure: 'cold start: a bare Node client of the control socket (status)', unit: 'ms', samples: bareSamples, baseline: base, target: null,
        note: 'baseline: node -e 0; information: the floor under every client command of the socket (Node\'s net module, a connect and one exchange)' },
    ];
  } finally {
    await w.close();
  }
}
