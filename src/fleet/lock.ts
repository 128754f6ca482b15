// One supervisor per runtime dir: a lock file created with O_EXCL holding the pid. A lock
// whose pid is dead and whose socket does not answer is stale and replaced.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { callSupervisor } from '../control/client.js';
import { FleetError } from '../errors.js';
import type { RuntimeFiles } from '../paths.js';

export async function acquireLock(files: RuntimeFiles, pid: number): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(files.lock, 'wx', 0o600);
      writeSync(fd, `${pid}\n`);
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const running = await runningFleet(files);
    if (running !== null) throw running;
    rmSync(files.lock, { force: true });
  }
  throw new FleetError(`could not take the lock ${files.lock}`);
}

/** An error naming the tmux session of the running fleet, or null when the lock is stale. */
export async function runningFleet(files: RuntimeFiles): Promise<FleetError | null> {
  try {
    const status = (await callSupervisor(files.socket, { op: 'status' })) as { tmuxSessionName?: string };
    return new FleetError(`a fleet is already running in tmux session '${status.tmuxSessionName ?? '?'}' (runtime dir ${files.dir})`);
  } catch {
    // not answering: look at the pid
  }
  const pid = Number.parseInt(readSafe(files.lock), 10);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && pid !== process.pid) {
    return new FleetError(`a fleet supervisor (pid ${pid}) holds ${files.lock} but does not answer; stop it or remove the lock`);
  }
  return null;
}

export function releaseLock(files: RuntimeFiles, pid: number): void {
  if (Number.parseInt(readSafe(files.lock), 10) === pid) rmSync(files.lock, { force: true });
}

function readSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
