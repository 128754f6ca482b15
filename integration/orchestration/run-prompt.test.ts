// run --prompt: an agent started and given its first message once it is ready (its prompt
// signal or its composer), confirmed as send confirms it; from inside a lead claude (its
// session markers in the caller's environment) the worker still keeps its own transcript.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeSlug } from '../../src/harness/index.js';
import { world } from './world.js';

/** claude's session markers as its Bash tool passes them to what it runs (2.1.332). */
const LEAD_MARKERS = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: '0b6f9a52-51a8-4c0e-9f3e-2f1a7f3f2b10',
  CLAUDE_CODE_CHILD_SESSION: '1',
};

describe('run --prompt', () => {
  it("starts claude and codex with their first message, each submitted as turn 1, their replies readable", async () => {
    const w = await world();
    for (const agent of ['claude', 'codex']) {
      const r = await w.fleet.cli('run', '--prompt', `first job for ${agent}`, '--', agent);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^\d+\n$/);
      expect(r.stderr).toMatch(/^task \d+: submitted \(turn 1\) in \d+ ms\n$/);
      const id = r.stdout.trim();
      expect((await w.fleet.cli('wait', id)).exitCode).toBe(0);
      expect((await w.fleet.cli('output', id)).stdout).toBe(`fake reply to: first job for ${agent}\n`);
    }
    const plain = await w.fleet.cli('run', '--prompt', 'typed in', '--', 'cat');
    expect(plain.exitCode).toBe(0);
    expect(plain.stderr).toMatch(/: typed in \d+ ms: a plain command/);
    expect((await w.fleet.cli('run', '--prompt', '', '--', 'claude')).exitCode).toBe(2);
  });

  it("from inside a lead claude: the worker gets none of the lead's markers, so it keeps its own transcript", async () => {
    const w = await world();
    const r = await w.fleet.cliIn(w.sb.dir, { ...w.sb.env, ...LEAD_MARKERS }, 'run', '--prompt', 'a worker job', '--', 'claude');
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const task = await w.fleet.waitTask(id, (t) => t.conversationId !== null, 'its conversation known');
    expect(existsSync(join(w.sb.env.CLAUDE_CONFIG_DIR ?? '', 'projects', claudeSlug(w.sb.dir), `${task.conversationId}.jsonl`))).toBe(true);
  });
});
