import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HARNESS_NAMES } from '../../src/harness/index.js';
import { PROVEN_CLIENTS } from '../../src/harness/proven-clients.js';

// docs/agents.md's table is checked against the code: one row per harness, each naming every
// version the real-client suite last proved for it.
const doc = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');
const rows = new Map(doc.split('\n').filter((l) => l.startsWith('| ')).map((l) => [l.split('|')[1]!.trim(), l]));

describe('docs/agents.md', () => {
  it('has a row for every agent', () => {
    for (const name of HARNESS_NAMES) expect(rows.has(name), name).toBe(true);
  });

  it("names every proven version in its agent's row", () => {
    for (const c of PROVEN_CLIENTS) expect(rows.get(c.agent), `${c.agent} ${c.version}`).toContain(c.version);
  });
});
