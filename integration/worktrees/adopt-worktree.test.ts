// An agent started by hand in a worktree fleetcom made: adopted, it gets that worktree's record
// (so a save writes it with its worktree, and a load makes the worktree again for it).
import { describe, expect, it } from 'vitest';
import { handSession, startDirectly } from '../helpers/by-hand.js';
import { startFleet } from '../helpers/fleet.js';
import { waitForText } from '../helpers/pane.js';
import { useSandbox } from '../helpers/sandbox.js';
import { makeRepo } from './kit.js';

describe('adopting an agent in a worktree', () => {
  it('gives the adopted task the worktree record of its directory', async () => {
    const sb = await useSandbox();
    const repo = await makeRepo(sb);
    const fleet = await startFleet(sb);
    const made = await fleet.cli('run', '--cwd', repo, '--worktree', 'feat', '--', 'sleep', '600');
    expect(made.exitCode, made.stderr).toBe(0);
    const shared = await fleet.task(made.stdout.trim());
    const session = await handSession(sb, 'hand', shared.cwd);
    const hand = await startDirectly(sb, session, shared.cwd, ['claude']);
    await waitForText(sb, hand.paneId, '? for shortcuts');
    const adopted = await fleet.cli('adopt', hand.paneId);
    expect(adopted.exitCode, adopted.stderr).toBe(0);
    const task = (await fleet.ls()).find((t) => t.paneId === hand.paneId);
    expect(task?.worktree).toMatchObject({ repo, path: shared.cwd, branch: 'feat', base: shared.worktree?.base });
  });
});
