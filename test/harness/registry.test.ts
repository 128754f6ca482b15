import { describe, expect, it } from 'vitest';
import { AGENT_HOME_VARS, HARNESS_NAMES, HARNESSES } from '../../src/harness/index.js';

// names.ts lists what the client commands and the protocol may name without loading the
// harnesses; the registry is what runs. They must agree, or a new agent is half added.
describe('the harness registry', () => {
  it('has one harness per name, in the order of names.ts', () => {
    expect(HARNESSES.map((h) => h.name)).toEqual([...HARNESS_NAMES]);
  });

  it("lists every harness's home variables in names.ts, and no others", () => {
    expect(new Set(HARNESSES.flatMap((h) => h.home.vars))).toEqual(new Set(AGENT_HOME_VARS));
  });

  it('gives every harness a selector, and its first selector is a resume form of its own', () => {
    for (const h of HARNESSES) expect(h.selectors.length, h.name).toBeGreaterThan(0);
  });
});
