// A figure and its baseline timed alternately, so that both see the same machine: `fn` then
// `baseline`, warmup + trials times; the samples of both after the warm-up, and fn's last result.
import { performance } from 'node:perf_hooks';

export function alternate(fn, baseline, { trials, warmup }) {
  const samples = [];
  const floors = [];
  let result;
  for (let i = 0; i < warmup + trials; i++) {
    let start = performance.now();
    result = fn();
    const ms = performance.now() - start;
    start = performance.now();
    baseline();
    const floor = performance.now() - start;
    if (i < warmup) continue;
    samples.push(ms);
    floors.push(floor);
  }
  return { samples, floors, result };
}
