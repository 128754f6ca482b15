// `fleetcom keys`: tmux.conf lines equivalent to the binding `up` installs.
import { effectiveSettings } from '../config/settings.js';
import type { Deps } from '../deps.js';
import { cliPaths } from '../fleet/runtime-files.js';
import { rerunBinding } from '../fleet/rerun-key.js';

export async function runKeys(opts: { rerunKey?: string }, deps: Deps): Promise<number> {
  const key = effectiveSettings(deps, { rerunKey: opts.rerunKey }).settings.rerunKey;
  const binding = rerunBinding(cliPaths(), 'refresh-client');
  deps.stdout.write(
    `# fleetcom: prefix + ${key} reruns the task of the current pane; elsewhere it refreshes the client\n` +
      `bind-key -T prefix ${key} ${binding}\n`,
  );
  return 0;
}
