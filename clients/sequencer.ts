// The order the suite's files start in, two at a time: the longest first, so the last to
// start are short and both workers end together (vitest's own order, by file size without a
// cache, started opencode's ~2 min round trip last and alone). Files not listed follow, by name.
import { basename } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files' durations on 2 cores, longest first (adopt: another branch's, ~4 min at load 12-18). */
const LONGEST_FIRST = ['kilo', 'opencode', 'adopt', 'park', 'claude', 'ownership', 'codex', 'gemini', 'qwen', 'attention',
  'copilot', 'pi'];

function rank(spec: TestSpecification): number {
  const at = LONGEST_FIRST.indexOf(basename(spec.moduleId, '.test.ts'));
  return at === -1 ? LONGEST_FIRST.length : at;
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}
