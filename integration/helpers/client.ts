// A real tmux client attached to a sandbox session, so keys go through tmux's own key tables.
import { execa, type ResultPromise } from 'execa';
import { CONTROL_TERM } from '../../src/tmux/control/connection.js';
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

/**
 * A list-clients format that prints nothing for fleetcom's own control clients (a supervisor's
 * line to tmux is attached to its session too): `personsOnly` drops their empty lines.
 */
export function personFormat(format: string): string {
  return `#{?#{==:#{client_termname},${CONTROL_TERM}},,${format}}`;
}

/** list-clients output of personFormat, without the control clients' empty lines. */
export function personsOnly(listing: string): string {
  return listing.split('\n').filter((line) => line !== '').join('\n');
}

/** `tmux attach` on a pseudo-terminal made by `script`; `type` sends raw bytes (`\x02` is the prefix). */
export async function attachClient(sb: Sandbox, target: string): Promise<{ type(bytes: string): void; client: ResultPromise }> {
  const client = execa('script', ['-qfec', `tmux -S '${sb.socket}' attach-session -t '${target}'`, '/dev/null'], {
    env: { ...sb.env, TERM: 'xterm-256color' },
    extendEnv: false,
    stdin: 'pipe',
    stdout: 'ignore',
    stderr: 'ignore',
    reject: false,
  });
  await waitFor(async () => personsOnly(await sb.tmux('list-clients', '-F', personFormat('#{client_name}'))) !== '', { what: 'an attached client' });
  return { type: (bytes) => client.stdin?.write(bytes), client };
}
