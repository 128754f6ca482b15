// state.json names the capture namespace and capture files that `down`, `rm` and `rerun`
// delete. A damaged or planted state.json must not turn them into deletions of the user's
// files: only a namespace directly under the capture root, and capture files in the fleet's own
// namespaces, are ever removed.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PersistedState } from '../../src/fleet/adoption/state-file.js';
import { cliPath } from '../helpers/cli.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { paneText } from '../helpers/pane.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';

async function crashAndAdopt(sb: Sandbox, fleet: Fleet, change: (state: PersistedState) => void): Promise<string> {
  const pid = Number((await sb.tmux('display-message', '-p', '-t', fleet.supervisorPane, '#{pane_pid}')).trim());
  process.kill(pid, 'SIGKILL');
  await waitFor(async () => (await fleet.cli('ls')).exitCode === 3, { what: 'the fleet to be gone' });
  const file = join(sb.env.FLEETCOM_RUNTIME_DIR!, 'state.json');
  const state = JSON.parse(await readFile(file, 'utf8')) as PersistedState;
  change(state);
  await writeFile(file, JSON.stringify(state));
  const pane = (await sb.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${fleet.session}:`, '--',
    process.execPath, cliPath, 'up', '--headless')).trim();
  await sb.tmux('set-option', '-w', '-t', pane, 'remain-on-exit', 'on');
  await waitFor(async () => (await fleet.cli('ls', '--json')).exitCode === 0, { what: 'the adopting supervisor' });
  return pane;
}

async function plant(file: string): Promise<string> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, 'keep');
  return file;
}

describe('paths read back from state.json', () => {
  it('rm, rerun and down delete nothing that state.json places outside the capture root', async () => {
    const sb = await useSandbox();
    const fleet = await startFleet(sb);
    const removed = await fleet.run('sleep', '600');
    const rerun = await fleet.run('sleep', '600');
    const statePath = join(sb.env.FLEETCOM_RUNTIME_DIR!, 'state.json');
    await waitFor(async () => (JSON.parse(await readFile(statePath, 'utf8')) as PersistedState).tasks.length === 2, { what: 'state.json with both tasks' });

    // Named exactly like fleetcom's own namespace and capture files, but in the user's home.
    const victimNamespace = join(sb.home, 'work', '4242-abcdefabcdef');
    const inNamespace = await plant(join(victimNamespace, 'task-2-0.json'));
    const notes = await plant(join(victimNamespace, 'notes.txt'));
    const loose = await plant(join(sb.home, 'notes', 'task-1-0.json'));
    const pane = await crashAndAdopt(sb, fleet, (state) => {
      state.namespace = victimNamespace;
      for (const task of state.tasks) task.captureFile = task.id === Number(removed) ? loose : inNamespace;
    });

    expect((await fleet.cli('rm', removed)).exitCode).toBe(0);
    expect((await fleet.cli('kill', rerun)).exitCode).toBe(0);
    await fleet.waitTask(rerun, (t) => t.state === 'exited', 'exited');
    expect((await fleet.cli('rerun', rerun)).exitCode).toBe(0);
    expect((await fleet.cli('down')).exitCode).toBe(0);

    for (const file of [inNamespace, notes, loose]) expect({ file, kept: existsSync(file) && (await readFile(file, 'utf8')) }).toEqual({ file, kept: 'keep' });
    const log = await paneText(sb, pane);
    expect(log).toContain(`ignoring the capture namespace ${victimNamespace}`);
    expect(log).toContain(`task ${removed}: ignoring its capture file ${loose}`);
  });
});
