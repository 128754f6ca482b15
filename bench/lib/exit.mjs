// One timed task exit through a running fleet: `fleetcom run -- claude` with the bench's
// stand-in (bench/fixtures/bin/claude), which prints claude's exit hint, writes the epoch ms of
// its exit to a mark file and exits; the result is the supervisor's own log timestamp of
// `task N exited …; exit hint <id>` (FLEETCOM_LOG_MS=1) minus that mark.
import { existsSync, readFileSync } from 'node:fs';
import { logTime, waitFor } from './world.mjs';

export const readMs = (file) => (existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) || null : null);

export async function timedExit(w, fleet, label) {
  const mark = w.path(`fleet-exit-${label}`);
  const r = await w.cli(['run', '--', 'claude'], { extra: { BENCH_EXIT_MARK: mark } });
  if (r.code !== 0) throw new Error(`run failed: ${r.stderr}`);
  const id = r.stdout.trim();
  const exited = await waitFor(() => readMs(mark), `task ${id} to exit`);
  const line = await waitFor(
    () => fleet.text().split('\n').find((l) => l.includes(` task ${id} exited`) || l.includes(` task ${id} was killed`)),
    `the supervisor to log task ${id}'s exit`,
  );
  if (!line.includes('exit hint')) throw new Error(`no exit hint in: ${line}`);
  return logTime(line) - exited;
}
