// Agents started by hand, the way a user starts them before fleetcom knows of them: in panes
// of the sandbox's tmux server, directly as the pane's process or typed into a shell.
import type { Sandbox } from './sandbox.js';
import { typeLine, waitForText } from './pane.js';

/** The prompt of the interactive shells started here. */
export const PROMPT = 'hand$ ';

export interface ByHand {
  paneId: string;
  windowId: string;
  panePid: number;
}

/** A detached tmux session `name` on the sandbox's server, for the panes below. */
export async function handSession(sb: Sandbox, name: string, cwd: string): Promise<string> {
  return (await sb.tmux('new-session', '-d', '-P', '-F', '#{session_id}', '-s', name, '-x', '160', '-y', '48', '-c', cwd, 'sleep 86400')).trim();
}

/** `argv` as the pane's own process (tmux execs several words directly). */
export async function startDirectly(sb: Sandbox, session: string, cwd: string, argv: string[]): Promise<ByHand> {
  const made = await sb.ops.newWindow({ session, name: 'by-hand', cwd, argv, path: sb.env.PATH, windowOptions: {} });
  return { paneId: made.paneId, windowId: made.windowId, panePid: made.panePid ?? 0 };
}

/** An interactive shell (`sh -i`) in a new window, `command` typed into it once it prompts. */
export async function startInShell(sb: Sandbox, session: string, cwd: string, command: string): Promise<ByHand> {
  const made = await sb.ops.newWindow({
    session, name: 'shell', cwd, argv: ['/bin/sh', '-i'], env: { PS1: PROMPT }, path: sb.env.PATH, windowOptions: {},
  });
  await waitForText(sb, made.paneId, PROMPT.trimEnd()); // captures drop trailing blanks
  await typeLine(sb, made.paneId, command);
  return { paneId: made.paneId, windowId: made.windowId, panePid: made.panePid ?? 0 };
}
