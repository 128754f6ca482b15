// The chaos harness's pure parts: the same seed draws the same steps (whatever the machine's
// timing), every step is valid, and the shrinker finds a minimal failing history.
import { describe, expect, it } from 'vitest';
import { shrink } from '../../chaos/shrink.mjs';
import { AGENT_KINDS, drawSteps, OPS, prng, validSteps, type Step } from '../../chaos/steps.mjs';

describe('chaos steps', () => {
  it('the same seed draws the same steps; another seed other ones', () => {
    expect(drawSteps(42, 200)).toEqual(drawSteps(42, 200));
    expect(drawSteps(42, 200)).not.toEqual(drawSteps(43, 200));
    expect(drawSteps(42, 30)).toEqual(drawSteps(42, 200).slice(0, 30));
  });

  it('pins the first draws of a seed, so a change of the generator is seen (replay files keep their meaning)', () => {
    const r = prng(7);
    expect([r.next(), r.next()].map((x) => x.toFixed(6))).toEqual(['0.011705', '0.061958']);
  });

  it('draws only valid steps, every kind of step and every agent in a long history', () => {
    const steps = drawSteps(1, 2000);
    expect(validSteps(steps)).toBeNull();
    expect(new Set(steps.map((s) => s.op))).toEqual(new Set(OPS));
    expect(new Set(steps.filter((s) => s.kind).map((s) => s.kind))).toEqual(new Set(AGENT_KINDS));
  });

  it('sends a /clear only to an agent that has one and a subagent step only to an agent that has them', () => {
    for (const seed of [1, 2, 3]) {
      const steps = drawSteps(seed, 300);
      const kinds = new Map<number, string>();
      for (const s of steps) {
        if (s.op === 'start' || s.op === 'adopt') kinds.set(s.slot, s.kind!);
        if (s.op === 'clear') expect(['claude', 'copilot', 'pi']).toContain(kinds.get(s.slot));
        if (s.op === 'subagent') expect(['codex', 'gemini', 'opencode', 'kilo', 'qwen', 'copilot']).toContain(kinds.get(s.slot));
      }
    }
  });

  it('refuses a replay file with an unknown step, slot or agent', () => {
    expect(validSteps([{ op: 'explode', slot: 0 }])).toContain('unknown op');
    expect(validSteps([{ op: 'turn', slot: 9 }])).toContain('slot');
    expect(validSteps([{ op: 'start', slot: 0, kind: 'vim' }])).toContain('unknown agent');
    expect(validSteps({})).toContain('list');
  });
});

describe('the chaos shrinker', () => {
  it('finds the two steps that together fail, out of fifty', async () => {
    const steps: Step[] = drawSteps(5, 50).map((s, i) => ({ ...s, slot: i % 6 }));
    const a = steps[11]!;
    const b = steps[37]!;
    const fails = async (candidate: Step[]) => candidate.includes(a) && candidate.includes(b);
    const result = await shrink(steps, fails, { budget: 200 });
    expect(result.steps).toEqual([a, b]);
  });

  it('stops at its budget of replays', async () => {
    const steps = drawSteps(5, 50);
    let runs = 0;
    const result = await shrink(steps, async () => (++runs, false), { budget: 10 });
    expect(runs).toBe(10);
    expect(result.steps).toEqual(steps);
  });
});
