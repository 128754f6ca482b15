// Crashing and restarting a fleet's supervisor the way a user's machine would: SIGKILL to its
// pane's process, then a new `up` in the same tmux session, which adopts the tasks.
import { cliPath } from './cli.js';
import type { Fleet } from './fleet.js';
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

/** The supervisor is its pane's own process (startFleet starts it without a shell). */
export async function supervisorPid(sb: Sandbox, pane: string): Promise<number> {
  return Number((await sb.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim());
}

export async function killSupervisor(sb: Sandbox, fleet: Fleet, pane = fleet.supervisorPane): Promise<void> {
  process.kill(await supervisorPid(sb, pane), 'SIGKILL');
  await waitFor(async () => (await fleet.cli('ls')).exitCode === 3, { what: 'the fleet to be gone' });
}

/** A new supervisor in the fleet's tmux session; returns its pane once it answers. */
export async function upAgain(sb: Sandbox, fleet: Fleet, wrap: readonly string[] = []): Promise<string> {
  const pane = (await sb.tmux('new-window', '-d', '-P', '-F', '#{pane_id}', '-t', `${fleet.session}:`, '--',
    ...wrap, process.execPath, cliPath, 'up', '--headless')).trim();
  await sb.tmux('set-option', '-w', '-t', pane, 'remain-on-exit', 'on');
  await waitFor(async () => (await fleet.cli('ls', '--json')).exitCode === 0, { what: 'the new supervisor' });
  return pane;
}
