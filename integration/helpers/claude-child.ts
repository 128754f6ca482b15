// A claude started from inside another claude (a lead's Bash tool, its MCP server): the
// markers claude puts in its tools' environment, and the check that such a task still keeps
// a transcript, ends resumable through its exit hint and resumes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { claudeSlug } from '../../src/harness/index.js';
import type { Fleet } from './fleet.js';
import { typeLine, waitForText } from './pane.js';
import type { Sandbox } from './sandbox.js';

/** What claude-code 2.1.332 sets for the commands it runs. */
export const CLAUDE_MARKERS = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: '0b6f9a52-51a8-4c0e-9f3e-2f1a7f3f2b10',
  CLAUDE_CODE_CHILD_SESSION: '1',
  CLAUDE_JOB_DIR: '/nonexistent/job',
};

/** A message, then /exit: the task must end resumable by its pin, through its exit hint. */
export async function talkAndExit(sb: Sandbox, fleet: Fleet, id: string, home: string): Promise<void> {
  const task = await fleet.task(id);
  await waitForText(sb, task.paneId, '? for shortcuts');
  await typeLine(sb, task.paneId, 'hello');
  await waitForText(sb, task.paneId, 'fake reply to: hello');
  await typeLine(sb, task.paneId, '/exit');
  const exited = await fleet.waitTask(id, (t) => t.state === 'exited', 'exited');
  expect(exited.idSource, 'the exit hint was printed and scraped').toBe('exit-hint');
  expect(existsSync(join(home, 'projects', claudeSlug(sb.dir), `${exited.conversationId}.jsonl`)), 'its transcript').toBe(true);
  const rerun = await fleet.cli('rerun', id);
  expect(rerun.exitCode, rerun.stderr).toBe(0);
  expect((await fleet.task(id)).command).toBe(`claude --resume '${exited.conversationId}'`);
}
