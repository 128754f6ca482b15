// The rerun key pressed by a real attached tmux client, with two fleets (two runtime dirs) on
// one tmux server: each task window reruns through its own fleet's socket.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachClient } from '../helpers/client.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

async function exitedTask(fleet: Fleet): Promise<{ id: number; windowId: string }> {
  const id = await fleet.run('sh', '-c', 'echo done');
  const task = await fleet.waitTask(id, (t) => t.state === 'exited', 'exited');
  return { id: task.id, windowId: task.windowId };
}

describe('the rerun key', () => {
  it('reruns the task of the pane it is pressed in, through that fleet, in a non-default runtime dir', async () => {
    const sb = await useSandbox();
    await sb.startServer();
    await sb.tmux('bind-key', '-T', 'prefix', 'r', 'set-option', '-g', '@pressed-elsewhere', 'yes');
    const fleetA = await startFleet(sb, { name: 'a' });
    const fleetB = await startFleet(sb, { name: 'b', env: { FLEETCOM_RUNTIME_DIR: join(sb.dir, 'runtime-b') } });
    const a = await exitedTask(fleetA);
    const b = await exitedTask(fleetB);
    expect(a.id).toBe(1);
    expect(b.id).toBe(1);

    await sb.tmux('select-window', '-t', b.windowId);
    const { type, client } = await attachClient(sb, 'b');
    try {
      type('\x02r'); // prefix, then r
      await fleetB.waitTask(b.id, (t) => t.run === 1, 'rerun by the key');
      expect((await fleetA.task(a.id)).run).toBe(0);

      // Elsewhere (the supervisor's own window) the key does what it did before.
      await fleetB.waitTask(b.id, (t) => t.state === 'exited', 'the rerun exits again');
      await sb.tmux('select-window', '-t', `${fleetB.session}:0`);
      type('\x02r');
      await waitFor(async () => (await sb.tmux('show-options', '-gqv', '@pressed-elsewhere')).trim() === 'yes', {
        what: 'the previous binding to run',
      });
      expect((await fleetB.task(b.id)).run).toBe(1);
    } finally {
      client.kill();
      await client;
    }
  });
});
