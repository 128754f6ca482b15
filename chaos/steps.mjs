// The steps of a history, drawn from a seeded PRNG: pure, so the same seed draws the same steps
// on any machine (the timing of a run may differ; what is drawn never does). A step names an
// agent by its slot; a step whose slot holds no agent, or no live one, is skipped when it runs,
// which keeps every sub-list of a history runnable (the shrinker removes steps freely).

/** mulberry32: small, fast, and the same everywhere. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    weighted(table) {
      const total = table.reduce((sum, [, w]) => sum + w, 0);
      let r = next() * total;
      for (const [value, w] of table) {
        r -= w;
        if (r < 0) return value;
      }
      return table.at(-1)[0];
    },
  };
}

export const AGENT_KINDS = ['claude', 'codex', 'grok', 'gemini', 'opencode', 'qwen', 'kilo', 'pi', 'copilot'];
export const SLOTS = 6;

/** Each step's weight: the agents' own doings most, the faults of fleetcom's world less. */
export const WEIGHTS = [
  ['start', 10],
  ['turn', 16],
  ['clear', 6],
  ['exit', 3],
  ['crash', 3],
  ['kill-agent', 2],
  ['subagent', 4],
  ['rerun', 5],
  ['rm', 2],
  ['save', 6],
  ['load', 2],
  ['down-up', 2],
  ['adopt', 2],
  ['kill-supervisor', 3],
  ['outage', 3],
  ['kill-server', 1],
  ['stop-supervisor', 2],
  ['kill-control', 2],
  ['sweep-runtime', 2],
  ['sweep-namespace', 3],
  ['concurrent', 3],
  ['full-disk-save', 1],
  ['bad-payload', 2],
];
export const OPS = WEIGHTS.map(([op]) => op);

/** Steps that act on one agent's slot (the others act on the fleet, the slot unused). */
const ON_AGENT = new Set(['turn', 'clear', 'exit', 'crash', 'kill-agent', 'subagent', 'rerun', 'rm', 'concurrent', 'sweep-namespace', 'outage', 'bad-payload']);
// A new conversation in the same process: claude's, qwen's and copilot's /clear, pi's /new.
const KIND_OPS = { clear: ['claude', 'qwen', 'copilot', 'pi'], subagent: ['codex', 'gemini', 'opencode', 'kilo', 'qwen', 'copilot'] };

/**
 * `count` steps of the history `seed` draws. The draw keeps its own account of which slots hold
 * which agent, so an agent's step goes to a slot that has one of a kind it fits (a /clear to an
 * agent that has one, a subagent to one that runs them); a new agent takes a free slot.
 */
export function drawSteps(seed, count) {
  const rng = prng(seed);
  const kinds = new Map();
  const steps = [];
  while (steps.length < count) {
    const op = rng.weighted(WEIGHTS);
    if (op === 'start' || op === 'adopt') {
      const free = Array.from({ length: SLOTS }, (_, i) => i).filter((i) => !kinds.has(i));
      if (free.length === 0) continue;
      const step = { op, slot: rng.pick(free), kind: rng.pick(AGENT_KINDS), home: rng.next() < 0.5 };
      kinds.set(step.slot, step.kind);
      steps.push(step);
      continue;
    }
    if (!ON_AGENT.has(op)) {
      steps.push({ op, slot: 0 });
      continue;
    }
    const fits = [...kinds.entries()].filter(([, kind]) => !KIND_OPS[op] || KIND_OPS[op].includes(kind)).map(([slot]) => slot);
    if (fits.length === 0) continue;
    const slot = rng.pick(fits);
    // `rm` ends the agent: its slot takes a new one (in a directory of its own).
    if (op === 'rm') kinds.delete(slot);
    steps.push({ op, slot });
  }
  return steps;
}

/** One line per step, as a history prints and a replay file holds. */
export function describe(step) {
  return [step.op, `slot=${step.slot}`, ...(step.kind ? [step.kind, step.home ? 'own-home' : 'default-home'] : [])].join(' ');
}

/** A replay file: the seed it came from and its steps, JSON. */
export function validSteps(steps) {
  if (!Array.isArray(steps)) return 'expected a list of steps';
  for (const [i, s] of steps.entries()) {
    if (!s || !OPS.includes(s.op)) return `step ${i + 1}: unknown op ${JSON.stringify(s?.op)}`;
    if (!Number.isInteger(s.slot) || s.slot < 0 || s.slot >= SLOTS) return `step ${i + 1}: slot must be 0-${SLOTS - 1}`;
    if ((s.op === 'start' || s.op === 'adopt') && !AGENT_KINDS.includes(s.kind)) return `step ${i + 1}: unknown agent ${JSON.stringify(s.kind)}`;
  }
  return null;
}
