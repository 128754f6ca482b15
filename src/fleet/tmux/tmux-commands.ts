// The tmux command strings fleetcom installs (the rerun key's binding is in rerun-key.ts). Pure.
// tmux runs them in the server's environment, so a command that runs the CLI names the absolute node binary, CLI
// script and socket, and runs with `run-shell -b` so tmux never waits on fleetcom. The
// pane-died hook runs no process at all: it signals a `wait-for` channel.
import { createHash } from 'node:crypto';
import { quoteShell } from '../../harness/index.js';

export interface CliPaths {
  node: string;
  script: string;
}

/** A string for tmux's command parser: double quotes, with `\`, `"` and `$` escaped. */
export function tmuxQuote(text: string): string {
  return `"${text.replace(/[\\"$]/g, (c) => `\\${c}`)}"`;
}

/** A sh command running the CLI; `#` doubled because run-shell expands formats. */
export function cliShell(cli: CliPaths, args: readonly string[], formatTail: string): string {
  const words = [cli.node, cli.script, ...args].map(quoteShell).join(' ').replaceAll('#', '##');
  return `${words} ${formatTail}`;
}

/** The tmux `wait-for` channel on which the supervisor of this control socket hears deaths. */
export function paneDiedChannel(socket: string): string {
  return `fleetcom-died-${createHash('sha256').update(socket).digest('hex').slice(0, 16)}`;
}

/**
 * Window hook: wake this supervisor, which then reads which panes died with one list-panes.
 * A tmux command, not a process: `run-shell` of the CLI cost a Node start per exit (~200 ms
 * on a loaded 2-core machine, npm run bench). A signal sent while nobody waits is kept by tmux
 * until the next wait, so none is lost.
 */
export function paneDiedHook(socket: string): string {
  return `wait-for -S ${tmuxQuote(paneDiedChannel(socket))}`;
}
