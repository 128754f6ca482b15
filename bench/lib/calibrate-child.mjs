// The calibration workload, run by bench/lib/calibration.mjs in a Node of the world's
// environment: CALLS tmux client calls made one after another on the world's server, each
// spawned, waited for and its output read, as the supervisor makes its own. Prints the CPU it
// took: this process's own (µs, from process.cpuUsage, from after Node's start) and that of
// its reaped children (the tmux clients: cutime + cstime of /proc/self/stat, in ticks).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const [socket, callsArg] = process.argv.slice(2);
const calls = Number(callsArg);
const childTicks = () => {
  const text = readFileSync('/proc/self/stat', 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return Number(f[13]) + Number(f[14]);
};
const call = () => new Promise((resolve, reject) => {
  const child = spawn('tmux', ['-f', '/dev/null', '-S', socket, 'display-message', '-p', '#{pid} #{session_name} #{window_id}'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
  child.on('error', reject);
  child.on('close', (code) => (code === 0 && out !== '' ? resolve(out) : reject(new Error(`tmux display-message exited ${code}`))));
});
const ticks0 = childTicks();
const cpu0 = process.cpuUsage();
for (let i = 0; i < calls; i++) await call();
const cpu = process.cpuUsage(cpu0);
process.stdout.write(`${JSON.stringify({ calls, ownUs: cpu.user + cpu.system, childTicks: childTicks() - ticks0 })}\n`);
