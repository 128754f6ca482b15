// The commands fleetcom installs in tmux (product.md §3.3, §3.5). Pure. tmux runs them in the
// server's environment, so each names the absolute node binary, CLI script and socket, and
// runs with `run-shell -b` so tmux never waits on fleetcom.
import { quoteShell } from '../harness/index.js';

export interface CliPaths {
  node: string;
  script: string;
}

/** A string for tmux's command parser: double quotes, with `\`, `"` and `$` escaped. */
export function tmuxQuote(text: string): string {
  return `"${text.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;
}

/** A sh command running the CLI; `#` doubled because run-shell expands formats. */
function cliShell(cli: CliPaths, args: readonly string[], formatTail: string): string {
  const words = [cli.node, cli.script, ...args].map(quoteShell).join(' ').replaceAll('#', '##');
  return `${words} ${formatTail}`;
}

/** Window hook: tell this supervisor which pane ended. */
export function paneDiedHook(cli: CliPaths, socket: string): string {
  return `run-shell -b ${tmuxQuote(cliShell(cli, ['_pane-died', '--socket', socket], '#{pane_id}'))}`;
}

/**
 * The rerun key: server-wide, so it dispatches per pane — a task window reruns its task
 * through the socket named by its own `@fleetcom-socket`; anywhere else the key does what it
 * did before (`previous`, a tmux command string, or nothing).
 */
export function rerunBinding(cli: CliPaths, previous: string | null): string {
  const rerun = `run-shell -b ${tmuxQuote(cliShell(cli, ['rerun', '--from-key'], '--pane #{pane_id} --socket #{q:@fleetcom-socket}'))}`;
  const fallback = previous ? ` ${tmuxQuote(previous)}` : '';
  return `if-shell -F '#{@fleetcom-task}' ${tmuxQuote(rerun)}${fallback}`;
}

/** Marks a binding as fleetcom's own, so an adopting supervisor never records it as "previous". */
export function isFleetcomBinding(command: string): boolean {
  return command.includes('@fleetcom-task');
}

export function previousBindingOption(key: string): string {
  return `@fleetcom-prev-${key}`;
}
