// `fleetcom run` called from inside a claude session (its Bash tool): claude's own session
// markers must not reach the task, or the new claude runs as that session's child with no
// transcript, registry entry or exit hint (the fake does as claude-code 2.1.332 was measured
// to do), and could never be resumed. The user's own settings still pass.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeSlug } from '../../src/harness/index.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';

const MARKERS = {
  CLAUDECODE: '1',
  CLAUDE_CODE_ENTRYPOINT: 'cli',
  CLAUDE_CODE_SESSION_ID: '0b6f9a52-51a8-4c0e-9f3e-2f1a7f3f2b10',
  CLAUDE_CODE_CHILD_SESSION: '1',
  CLAUDE_JOB_DIR: '/nonexistent/job',
};

/** A message, then /exit: the task must end resumable by its pin, through its exit hint. */
async function talkAndExit(sb: Sandbox, fleet: Fleet, id: string, home: string): Promise<void> {
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

describe('a task started from inside a claude session', () => {
  it("gets none of the caller's claude markers but keeps its CLAUDE_CONFIG_DIR", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const home = await sb.mkdir('callers-claude-home');
    const r = await fleet.cliIn(sb.dir, { ...sb.env, ...MARKERS, CLAUDE_CONFIG_DIR: home }, 'run', '--', 'claude');
    expect(r.exitCode, r.stderr).toBe(0);
    await talkAndExit(sb, fleet, r.stdout.trim(), home);
  });

  it("does not inherit them from the tmux server's global environment either", async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    for (const [name, value] of Object.entries(MARKERS)) await sb.tmux('set-environment', '-g', name, value);
    await talkAndExit(sb, fleet, await fleet.run('claude'), sb.env.CLAUDE_CONFIG_DIR ?? '');
  });
});
