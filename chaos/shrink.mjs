// Delta debugging (Zeller's ddmin) over a history's steps: the smallest sub-list that still
// fails, found by replaying. `fails(steps)` runs a history and says whether it broke an
// invariant; it may be flaky, so a candidate counts only when it fails. Bounded by `budget`
// replays: a history of 50 steps shrinks in a few dozen.
export async function shrink(steps, fails, { budget = 40, log = () => {} } = {}) {
  let current = steps;
  let n = 2;
  let runs = 0;
  while (current.length >= 2 && runs < budget) {
    const size = Math.ceil(current.length / n);
    const chunks = [];
    for (let i = 0; i < current.length; i += size) chunks.push([i, Math.min(i + size, current.length)]);
    let reduced = false;
    // Complements first: dropping one chunk at a time removes the most per success.
    for (const [from, to] of chunks) {
      if (runs >= budget) break;
      const candidate = [...current.slice(0, from), ...current.slice(to)];
      if (candidate.length === 0) continue;
      runs += 1;
      if (await fails(candidate)) {
        log(`shrunk to ${candidate.length} steps`);
        current = candidate;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= current.length) break;
      n = Math.min(n * 2, current.length);
    }
  }
  return { steps: current, runs };
}
