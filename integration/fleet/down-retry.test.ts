// `down` that fails part way (here: the runtime dir turned read-only, so state.json cannot be
// removed) can be run again and then finishes; its last recovery snapshot says `closed` only
// once every task has stopped, and stays so until a task starts again.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startFleet } from '../helpers/fleet.js';
import { mountNamespace } from '../helpers/mount-ns.js';
import { useSandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { recoveryDir } from '../sessions/kit.js';

describe('down', () => {
  it('can be retried after it failed, and closes the snapshot only with every task stopped', async (ctx) => {
    const sb = await useSandbox();
    const runtime = sb.env.FLEETCOM_RUNTIME_DIR!;
    const ns = await mountNamespace([{ dir: runtime, kib: 1024 }]);
    if (ns === null) return ctx.skip('unshare -m is not permitted here');
    onTestFinished(() => ns.close());
    await ns.startTmux(sb);
    const fleet = await startFleet(sb, { wrap: ns.wrap });
    const id = await fleet.run('sleep', '600');
    const snapshot = await waitFor(async () => {
      const names = await readdir(recoveryDir(sb)).catch(() => [] as string[]);
      return names.find((n) => n.endsWith('.json')) ?? false;
    }, { what: 'the recovery snapshot' });
    const doc = async () => JSON.parse(await readFile(join(recoveryDir(sb), snapshot), 'utf8')) as { closed?: boolean };

    await ns.remount(runtime, 'ro');
    const failed = await fleet.cli('down');
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toMatch(/state\.json.*read-only file system/i);
    // The supervisor still answers; the task has stopped; the fleet still lists it.
    const after = await fleet.ls();
    expect(after.map((t) => t.id)).toEqual([Number(id)]);
    expect(after[0]?.state).toBe('exited');
    // Every task stopped: the snapshot stays closed while the fleet serves on…
    expect((await doc()).closed).toBe(true);
    // …until a task starts in it again, which makes it a live fleet's snapshot.
    await fleet.run('sleep', '600');
    await waitFor(async () => (await doc()).closed === undefined, { what: 'the snapshot reopened by a new task' });

    await ns.remount(runtime, 'rw');
    const retried = await fleet.cli('down');
    expect(retried).toMatchObject({ exitCode: 0 });
    expect((await fleet.cli('ls')).exitCode).toBe(3);
    await expect(readFile(ns.inside(join(runtime, 'state.json')))).rejects.toThrow(/ENOENT/);
  });
});
