// A real tmux client attached to a sandbox session, so keys go through tmux's own key tables.
import { execa, type ResultPromise } from 'execa';
import type { Sandbox } from './sandbox.js';
import { waitFor } from './wait-for.js';

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
  await waitFor(async () => (await sb.tmux('list-clients', '-F', '#{client_name}')).trim() !== '', { what: 'an attached client' });
  return { type: (bytes) => client.stdin?.write(bytes), client };
}
