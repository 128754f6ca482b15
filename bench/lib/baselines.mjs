// The baselines the bench's goals are ratios to, each measured in the same run and in the
// world's environment (integration/helpers/sandbox-env.mjs: nothing inherited, so
// NODE_EXTRA_CA_CERTS, NODE_OPTIONS and the like are unset on both sides of every ratio; with
// NODE_EXTRA_CA_CERTS set, node parses the whole CA bundle at start: 164 against 86 ms here).
//
//   nodeStart(w)        wall ms of `node -e 0`: the floor of any Node CLI
//   tmuxCall(w)         wall ms of one tmux client call (`display-message -p`) from Node
//   idleNodeRss(w)      VmRSS (MB) of a Node that only waits: the floor of a Node daemon
//   calibrate(w, n)     CPU ms of one tmux client call made, waited for and read by Node
//                       (bench/lib/calibrate-child.mjs), the unit of the CPU budgets
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rssMb, TICKS_PER_S } from './proc.mjs';
import { runTimed, sleep, waitFor } from './world.mjs';

const calibrateChild = fileURLToPath(new URL('./calibrate-child.mjs', import.meta.url));

const checked = (r, what) => {
  if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${r.stderr}`);
  return r;
};

/** `node -e 0`, the same Node as the CLI, in the world's environment: wall ms. */
export async function nodeStart(w) {
  return checked(await runTimed(process.execPath, ['-e', '0'], { env: w.env, cwd: w.dir }), 'node -e 0').ms;
}

/** One tmux client call on the world's server, spawned from Node: wall ms. */
export async function tmuxCall(w) {
  return checked(await w.tmuxAsync('display-message', '-p', '#{pid}'), 'tmux display-message').ms;
}

/** VmRSS (MB) of a Node in the world's environment that only waits, read once it is settled. */
export async function idleNodeRss(w) {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000); process.stdout.write("up\\n")'], { env: w.env, cwd: w.dir, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    let up = false;
    child.stdout.on('data', () => (up = true));
    await waitFor(() => up, 'the idle node to start');
    await sleep(300);
    return rssMb(child.pid);
  } finally {
    child.kill();
  }
}

/**
 * The calibration of CPU budgets: CPU ms (user + system) of one tmux client call that a Node
 * process spawns, waits for and reads (`display-message -p` on the world's server), its own part and
 * the client's. An idle supervisor's work is of that kind — its reconciliation every 2 s is one
 * such call, the dashboard's refresh a few — so a budget of "k calls' worth a second" holds
 * on a machine whose process starts cost 4× another's. `calls` calls a sample.
 */
export async function calibrate(w, calls) {
  const r = checked(await runTimed(process.execPath, [calibrateChild, w.socket, String(calls)], { env: w.env, cwd: w.dir }), 'the calibration');
  const { ownUs, childTicks } = JSON.parse(r.stdout);
  return (ownUs / 1000 + (childTicks * 1000) / TICKS_PER_S) / calls;
}
