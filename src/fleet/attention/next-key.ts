// The "next task that needs me" key (`prefix N` by default) and the status-line format that
// shows each window's attention. Installed and restored like the rerun key (rerun-key.ts).
import { cliShell, tmuxQuote, type CliPaths } from '../tmux/tmux-commands.js';

/** In the binding's command line, and in no user's: marks the binding as fleetcom's own. */
export const NEXT_KEY_MARK = '--from-key';

/**
 * Server-wide and the same in every window, so it names this fleet's socket; the supervisor
 * shows the task's window in the client that pressed the key.
 */
export function nextBinding(cli: CliPaths, socket: string): string {
  return `run-shell -b ${tmuxQuote(cliShell(cli, ['next', NEXT_KEY_MARK, '--socket', socket], '--from #{pane_id} --client #{q:client_name}'))}`;
}

/**
 * A window-status format for tmux.conf: a permission red, a wait yellow. `@fleetcom-attention`
 * is unset for tasks without attention, so other windows keep their plain look.
 */
export const ATTENTION_STATUS_FORMAT =
  '#{?#{==:#{@fleetcom-attention},permission},#[fg=red bold],#{?#{==:#{@fleetcom-attention},waiting},#[fg=yellow],}}#I:#W#F';
