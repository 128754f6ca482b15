import { describe, expect, it } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { typeLine, waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

describe('a fleet on a private tmux server', () => {
  it('records a command that exits at once with its status', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('false');
    const task = await fleet.waitTask(id, (t) => t.state === 'exited', 'exited');
    expect(task).toMatchObject({ exitStatus: 1, killed: false, harness: null, command: 'false' });
  });

  it('reruns a claude that talked into the same conversation, from the exit hint', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const id = await fleet.run('claude');
    const started = await fleet.task(id);
    await waitForText(sb, started.paneId, '? for shortcuts');
    await typeLine(sb, started.paneId, 'hello');
    await waitForText(sb, started.paneId, 'reply');
    await typeLine(sb, started.paneId, '/exit');
    const exited = await fleet.waitTask(id, (t) => t.state === 'exited', 'exited');
    expect(exited.idSource).toBe('exit-hint');
    const conversation = exited.conversationId;
    expect(conversation).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fleet.cli('rerun', id)).exitCode).toBe(0);
    const rerun = await fleet.task(id);
    expect(rerun).toMatchObject({ run: 1, state: 'running', command: `claude --resume '${conversation}'` });
    const starts = await waitFor(async () => {
      const all = await sb.agentStarts();
      return all.length === 2 && all;
    }, { what: 'the rerun claude to start' });
    expect(starts.at(-1)?.argv).toEqual(['--resume', conversation, '--settings', expect.stringMatching(/claude-settings\.json$/)]);
  });
});
