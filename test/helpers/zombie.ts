// A real zombie: a child that has exited and that its parent never waits for. `sh` starts a
// background child and becomes `sleep 60`, which reaps nothing; the child ends only once its
// parent is `sleep` (a child that ended before the exec could be reaped by the shell: seen
// under load), and stays in state Z while that parent lives (killing the parent hands it to
// PID 1 to reap).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { waitFor } from './wait-for.js';

export interface Zombie {
  pid: number;
  /** Ends the parent, and with it the zombie. */
  release(): void;
}

export async function makeZombie(): Promise<Zombie> {
  const script = 'p=$$; { until [ "$(cat /proc/$p/comm)" = sleep ]; do sleep 0.01; done; } & echo $!; exec sleep 60';
  const parent: ChildProcess = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  parent.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const pid = await waitFor(() => /^\d+\n/.test(out) && Number(out.trim()), { what: 'the background child pid' });
  await waitFor(() => stateOf(pid) === 'Z', { what: `pid ${pid} in state Z` });
  return { pid, release: () => parent.kill('SIGKILL') };
}

function stateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}
