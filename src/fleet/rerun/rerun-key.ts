// The rerun key: the binding string, installing it over whatever the key did before, and
// restoring that on `down`. The binding is server-wide, so it dispatches per pane — a task
// window reruns its task through the socket named by its own `@fleetcom-socket`; anywhere else
// the key does what it did before (kept in a server option, so an adopting supervisor and the
// final `down` both know it).
import { bindKey, serverOptionQuery, showServerOption, unbindKey, unsetServerOption } from '../../tmux/options.js';
import type { Query } from '../../tmux/queries.js';
import type { TmuxRun } from '../../tmux/runner.js';
import { NEXT_KEY_MARK } from '../attention/next-key.js';
import { cliShell, tmuxQuote, type CliPaths } from '../tmux/tmux-commands.js';

/** `previous` is the key's earlier tmux command string, run outside task windows (or nothing). */
export function rerunBinding(cli: CliPaths, previous: string | null): string {
  const rerun = `run-shell -b ${tmuxQuote(cliShell(cli, ['rerun'], '--pane #{pane_id} --socket #{q:@fleetcom-socket}'))}`;
  const fallback = previous ? ` ${tmuxQuote(previous)}` : '';
  return `if-shell -F '#{@fleetcom-task}' ${tmuxQuote(rerun)}${fallback}`;
}

/** Marks a binding as fleetcom's own (this key or the next-task key), so an adopting supervisor never records it as "previous". */
export function isFleetcomBinding(command: string): boolean {
  return command.includes('@fleetcom-task') || command.includes(NEXT_KEY_MARK);
}

export function previousBindingOption(key: string): string {
  return `@fleetcom-prev-${key}`;
}

/** The option keeping what `key` did before fleetcom bound it, read with the other start-up queries. */
export function previousBindingQuery(key: string): Query<string | null> {
  return serverOptionQuery(previousBindingOption(key));
}

/**
 * The commands that bind a prefix key over what it did before, which is recorded once for
 * `down` to restore. `recorded`: the option previousBindingQuery read (null: none yet, so this
 * is the first fleet on this server to bind the key); `current`: what the key runs now
 * (listKey), which becomes the recorded one then.
 */
export function keyCommands(key: string, recorded: string | null, current: string | null, binding: (previous: string | null) => string): string[][] {
  const commands: string[][] = [];
  let previous = recorded;
  if (previous === null) {
    previous = current !== null && !isFleetcomBinding(current) ? current : '';
    commands.push(['set-option', '-s', previousBindingOption(key), previous]);
  }
  commands.push(['bind-key', '-T', 'prefix', key, binding(previous || null)]);
  return commands;
}

/** `down`: the key does again what it did before fleetcom bound it (this key or the next-task key). */
export async function restoreKey(tmux: TmuxRun, key: string): Promise<void> {
  const option = previousBindingOption(key);
  const previous = await showServerOption(tmux, option);
  if (previous) await bindKey(tmux, 'prefix', key, previous);
  else await unbindKey(tmux, 'prefix', key);
  await unsetServerOption(tmux, option);
}
