// Fleets on several hosts, over real OpenSSH: three sshd "hosts" on the loopback of a private
// network namespace (integration/helpers/ssh-hosts.mjs), each with a fleet of one task, and a
// local fleetcom reaching them through one master per host. Skipped, with the reason, where
// namespaces or sshd are not available.
//
// The goals were filed as "+30 ms", "deadline + 0.2 s" and "+20 ms"; as ratios to baselines of
// the same run, whose intent matches those on a quiet machine (2 cores idle: node -e 0 ~45 ms,
// ssh over a master ~8 ms, so the floor below is ~100 ms):
// 1. `ls --json --host H` against the floor of any design that runs a Node CLI at each end:
//    `node -e 0` here plus `ssh H node -e 0` over the same master, per trial. +30 ms over
//    ~100 ms → ratio 1.3. (Against `ssh H true` alone, which the issue named, no such design
//    could meet +30 ms: the two Node starts are ~90 ms; the raw figure is in the note.)
// 2. `ls --all-hosts` of 3 hosts, one not answering (its sshd stopped), against the deadline
//    (2 s) plus `fleetcom --version` of the same trial: +0.2 s over ~2.05 s → 1.1.
// 3. `ls --all-hosts` of 3 reachable hosts against the slowest of the three single-host
//    `ls --json --host H` of the same trial: +20 ms over ~110 ms → ratio 1.2.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controlPath } from '../dist/remote/control-socket.js';
import { startSshHosts, sshHostsUnavailable } from '../integration/helpers/ssh-hosts.mjs';
import { makeSandboxDirs, sandboxEnv } from '../integration/helpers/sandbox-env.mjs';
import { benchBin, cliPath, recipeText, runTimed } from './lib/world.mjs';

const HOSTS = ['h1', 'h2', 'h3'];
const DEADLINE_S = 2;

export async function run({ smoke = false } = {}) {
  const unavailable = sshHostsUnavailable();
  if (unavailable !== null) {
    console.error(`bench: skipping hosts.bench.mjs: ${unavailable}`);
    return [];
  }
  // Smoke: one trial, each figure once (the stopped host's trial waits out the deadline: at
  // load 6 the smoke took 37 s with two trials and a 6 s deadline). A reachable host that takes
  // more than the deadline on a loaded CI machine is reported as not answering too; the figure
  // still runs (it asks only that the stopped one was).
  const [TRIALS, WARMUP] = smoke ? [1, 0] : [12, 2];
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'fleetcom-bench-hosts-')));
  makeSandboxDirs(dir);
  const ssh = await startSshHosts(dir, HOSTS);
  // Reachable hosts get all the time they need; the figure of the stopped host sets DEADLINE_S.
  const env = { ...sandboxEnv(dir, benchBin), ...ssh.localEnv, FLEETCOM_HOST_TIMEOUT: '60' };
  const cli = (args, extra = {}) => runTimed(process.execPath, [cliPath, ...args], { env: { ...env, ...extra }, cwd: dir });
  const sshOver = (host, command) => runTimed(ssh.sshCommand[0], [...ssh.sshCommand.slice(1), '-o', `ControlPath=${controlPath(join(env.FLEETCOM_RUNTIME_DIR, 'ssh'), host)}`, '--', host, command], { env, cwd: dir });
  const must = (r, what) => {
    if (r.code !== 0) throw new Error(`${what} failed (${r.code}): ${r.stderr}`);
    return r;
  };
  try {
    for (const host of HOSTS) {
      // Generous while the fleets start (a loaded machine); the figures use DEADLINE_S. Each
      // fleet loads its one task at start (the host's own file: the hosts share this disk).
      const recipe = join(ssh.hosts[host].dir, 'one.json');
      writeFileSync(recipe, recipeText('one', ssh.hosts[host].dir, ['sleep 100000']));
      must(await cli(['--host', host, 'up', '--detach', recipe]), `up on ${host}`);
    }
    const one = { samples: [], floor: [], raw: [] };
    const reachable = { samples: [], slowest: [] };
    const dropped = { samples: [], base: [] };
    for (let i = 0; i < WARMUP + TRIALS; i++) {
      const ls = must(await cli(['ls', '--json', '--host', 'h1']), 'ls --host h1');
      const nodeHere = must(await runTimed(process.execPath, ['-e', '0'], { env, cwd: dir }), 'node -e 0');
      const nodeThere = must(await sshOver('h1', `'${process.execPath}' -e 0`), 'ssh h1 node -e 0');
      const sshTrue = must(await sshOver('h1', 'true'), 'ssh h1 true');
      const singles = [ls.ms];
      for (const host of HOSTS.slice(1)) singles.push(must(await cli(['ls', '--json', '--host', host]), `ls --host ${host}`).ms);
      const all = must(await cli(['ls', '--all-hosts', '--hosts', HOSTS.join(','), '--json']), 'ls --all-hosts');
      if (JSON.parse(all.stdout).length !== HOSTS.length) throw new Error(`ls --all-hosts listed ${all.stdout}`);
      ssh.hosts.h3.freeze();
      let partial;
      try {
        partial = await cli(['ls', '--all-hosts', '--hosts', HOSTS.join(','), '--json'], { FLEETCOM_HOST_TIMEOUT: String(DEADLINE_S) });
      } finally {
        ssh.hosts.h3.thaw();
      }
      if (partial.code !== 1 || !partial.stderr.includes('host h3: no answer')) throw new Error(`ls --all-hosts with h3 stopped: ${partial.code} ${partial.stderr}`);
      const version = must(await cli(['--version']), 'fleetcom --version');
      if (i < WARMUP) continue;
      one.samples.push(ls.ms);
      one.floor.push(nodeHere.ms + nodeThere.ms);
      one.raw.push(sshTrue.ms);
      reachable.samples.push(all.ms);
      reachable.slowest.push(Math.max(...singles));
      dropped.samples.push(partial.ms);
      dropped.base.push(DEADLINE_S * 1000 + version.ms);
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    return [
      {
        figure: 'ls --json --host H (established master)', unit: 'ms', samples: one.samples, baseline: one.floor, target: { ratio: 1.3 },
        note: `baseline: node -e 0 here + ssh H node -e 0 over the same master (the floor of a Node CLI at each end); ssh H true over it: median ${median(one.raw).toFixed(1)} ms`,
      },
      {
        figure: `ls --all-hosts, 3 hosts, 1 not answering (deadline ${DEADLINE_S} s)`, unit: 'ms', samples: dropped.samples, baseline: dropped.base, target: { ratio: 1.1 },
        note: 'baseline: the deadline + fleetcom --version of the same trial; the stopped host is an sshd under SIGSTOP behind a live master',
      },
      {
        figure: 'ls --all-hosts, 3 reachable hosts', unit: 'ms', samples: reachable.samples, baseline: reachable.slowest, target: { ratio: 1.2 },
        note: 'baseline: the slowest of the three ls --json --host H of the same trial',
      },
    ];
  } finally {
    ssh.close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}
