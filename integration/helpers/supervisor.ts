// Crashing and restarting a fleet's supervisor the way a user's machine would: SIGKILL to its
// pane's process, then a new `up` in the same tmux session, which adopts the tasks.
import { readFileSync } from 'node:fs';
import { cliPath } from './cli.js';
import type { Fleet } from './fleet.js';
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

/** The supervisor is its pane's own process (startFleet starts it without a shell). */
export async function supervisorPid(sb: Sandbox, pane: string): Promise<number> {
  return Number((await sb.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim());
}

/** The supervisor of a fleet started `underShell`: the one child of its pane's shell. */
export async function supervisorBelowShell(sb: Sandbox, pane: string): Promise<number> {
  const shell = await supervisorPid(sb, pane);
  const children = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  if (children.length !== 1) throw new Error(`the shell ${shell} of pane ${pane} has children ${children.join(', ') || 'none'}, not one supervisor`);
  return children[0]!;
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
