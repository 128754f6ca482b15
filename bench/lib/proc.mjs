// CPU and memory of a process tree from /proc (Linux), for the idle figures.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const TICKS_PER_S = 100; // USER_HZ: /proc reports CPU time in 1/100 s on Linux

/** utime+stime of a process, plus cutime+cstime (its reaped children) when asked. */
export function statTicks(pid, withChildren) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields after the name: state(0) … utime(11) stime(12) cutime(13) cstime(14)
  const own = Number(f[11]) + Number(f[12]);
  return withChildren ? own + Number(f[13]) + Number(f[14]) : own;
}

function liveChildren(pid) {
  const kids = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const file = `/proc/${pid}/task/${tid}/children`;
    if (existsSync(file)) kids.push(...readFileSync(file, 'utf8').split(' ').filter(Boolean).map(Number));
  }
  return kids;
}

/** Ticks of a process, its reaped children, and its live children (and theirs). */
export function treeTicks(pid) {
  let ticks = 0;
  try {
    ticks = statTicks(pid, true);
    for (const kid of liveChildren(pid)) ticks += treeTicks(kid);
  } catch {
    // a child that ended between the listing and the read: its time moves into cutime
  }
  return ticks;
}

export const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
