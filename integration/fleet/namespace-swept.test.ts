// A capture namespace removed by a tmp cleaner while its agents run: the supervisor's guard
// makes it again within 2 s, but a claude `/clear` in that gap ran its hook into a directory
// that was gone, the new id was lost, and a later save resumed the conversation from before
// the /clear. The hooks now make their directory again (with the namespace's checks), so the
// capture lands and the task follows the /clear. The gap is held open by stopping the
// supervisor (below a shell, so tmux does not continue it), which is what makes it certain.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { supervisorBelowShell } from '../helpers/supervisor.js';
import { waitFor } from '../helpers/wait-for.js';

function continueAndKill(pid: number): void {
  for (const signal of ['SIGCONT', 'SIGKILL'] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

describe('a capture namespace swept while a claude runs', () => {
  it('a /clear in the gap still moves the task into the new conversation, and save resumes that one', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb, { underShell: true });
    const pid = await supervisorBelowShell(sb, fleet.supervisorPane);
    const task = await fleet.task(await fleet.run('claude'));
    await waitForText(sb, task.paneId, '? for shortcuts');
    await typeLine(sb, task.paneId, 'before the sweep');
    await waitForText(sb, task.paneId, 'fake reply to: before the sweep');
    const first = await fleet.waitTask(task.id, (t) => t.conversationId !== null && t.resumeCommand !== null, 'the first conversation captured');
    const before = first.conversationId!;
    const namespace = JSON.parse(readFileSync(join(sb.env.FLEETCOM_RUNTIME_DIR!, 'state.json'), 'utf8')).namespace as string;

    process.kill(pid, 'SIGSTOP');
    onTestFinished(() => continueAndKill(pid));
    await rm(namespace, { recursive: true, force: true });
    await typeLine(sb, task.paneId, '/clear');
    await waitForText(sb, task.paneId, '(no content)');
    await typeLine(sb, task.paneId, 'after the clear');
    await waitForText(sb, task.paneId, 'fake reply to: after the clear');
    // The conversation the /clear started: the transcript beside the first one.
    const projects = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects');
    const transcripts = readdirSync(projects, { recursive: true }).map(String).filter((f) => f.endsWith('.jsonl'));
    const after = transcripts.map((f) => basename(f, '.jsonl')).find((id) => id !== before);
    expect(after, `a second transcript among ${transcripts.join(', ')}`).toBeDefined();
    process.kill(pid, 'SIGCONT');

    const moved = await fleet.waitTask(task.id, (t) => t.conversationId === after!, 'the conversation after the /clear');
    expect(moved.resumeCommand).toContain(after!);
    expect(statSync(namespace).mode & 0o777).toBe(0o700);
    await waitFor(() => existsSync(join(namespace, 'claude-settings.json')), { what: 'the guard to write the assets again' });
    const saved = await fleet.cli('save', 'swept');
    expect(saved.exitCode).toBe(0);
    const recipe = readFileSync(join(sb.env.FLEETCOM_CONFIG_DIR!, 'sessions', 'swept.json'), 'utf8');
    expect(recipe).toContain(after!);
    expect(recipe).not.toContain(before);
  });
});
