// `fleetcom keys`: tmux.conf lines equivalent to the binding `up` installs.
import type { Deps } from '../deps.js';
import { cliPaths } from '../fleet/runtime-files.js';
import { rerunBinding } from '../fleet/rerun-key.js';

export async function runKeys(opts: { rerunKey: string }, deps: Deps): Promise<number> {
  const binding = rerunBinding(cliPaths(), 'refresh-client');
  deps.stdout.write(
    `# fleetcom: prefix + ${opts.rerunKey} reruns the task of the current pane; elsewhere it refreshes the client\n` +
      `bind-key -T prefix ${opts.rerunKey} ${binding}\n`,
  );
  return 0;
}
