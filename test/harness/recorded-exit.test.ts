import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { scrapeExit, type HarnessName } from '../../src/harness/index.js';

// Channel 1 on exit texts recorded from the real clients by the contract suite
// (`npm run test:clients -- --record`, see clients/helpers/record.ts): every
// test/fixtures/<agent>/*.txt has a .json beside it naming the id scraping must give.

const AGENTS: HarnessName[] = ['claude', 'codex', 'grok', 'qwen', 'kilo'];
const meta = z.object({ client: z.string(), expectedId: z.string().nullable(), how: z.string() });

function fixtureDir(agent: HarnessName): URL {
  return new URL(`../fixtures/${agent}/`, import.meta.url);
}

function filesOf(agent: HarnessName): string[] {
  try {
    return fs.readdirSync(fixtureDir(agent)).sort();
  } catch {
    return [];
  }
}

const recorded = AGENTS.flatMap((agent) =>
  filesOf(agent)
    .filter((name) => name.endsWith('.txt'))
    .map((name) => [agent, name] as const),
);

describe('exit texts recorded from the real clients', () => {
  it('pairs every recorded text with its expectation and nothing else', () => {
    for (const agent of AGENTS) {
      const files = filesOf(agent).filter((f) => f !== 'README.md');
      const stems = (ext: string) => files.filter((f) => f.endsWith(ext)).map((f) => f.slice(0, -ext.length));
      expect(stems('.txt'), agent).toEqual(stems('.json'));
      expect(files.filter((f) => !f.endsWith('.txt') && !f.endsWith('.json')), agent).toEqual([]);
    }
  });

  it.runIf(recorded.length > 0).each(recorded)('scrapes the %s text %s as recorded', (agent, name) => {
    const text = fs.readFileSync(new URL(name, fixtureDir(agent)), 'utf8');
    const parsed = meta.safeParse(JSON.parse(fs.readFileSync(new URL(name.replace(/\.txt$/, '.json'), fixtureDir(agent)), 'utf8')));
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    expect(scrapeExit(agent, text)).toBe(parsed.data.expectedId);
  });
});
