// `fleetcom keys`: tmux.conf lines equivalent to the bindings `up` installs, and a status-line
// format that shows each task's attention.
import { effectiveSettings } from '../../config/settings.js';
import type { Deps } from '../../deps.js';
import { cliPaths } from '../../fleet/runtime-files.js';
import { fleetRuntime } from '../../paths.js';
import { ATTENTION_STATUS_FORMAT, nextBinding } from '../../fleet/attention/next-key.js';
import { rerunBinding } from '../../fleet/rerun/rerun-key.js';

export async function runKeys(opts: { rerunKey?: string; nextKey?: string }, deps: Deps): Promise<number> {
  const { rerunKey, nextKey } = effectiveSettings(deps, { rerunKey: opts.rerunKey, nextKey: opts.nextKey }).settings;
  const cli = cliPaths();
  const socket = fleetRuntime(deps.env).socket;
  deps.stdout.write(
    `# fleetcom: prefix + ${rerunKey} reruns the task of the current pane; elsewhere it refreshes the client\n` +
      `bind-key -T prefix ${rerunKey} ${rerunBinding(cli, 'refresh-client')}\n` +
      `# fleetcom: prefix + ${nextKey} goes to the next task that needs you (the fleet of ${socket})\n` +
      `bind-key -T prefix ${nextKey} ${nextBinding(cli, socket)}\n` +
      `# fleetcom: window names coloured by attention (@fleetcom-attention: working, waiting, permission)\n` +
      `set-option -g window-status-format '${ATTENTION_STATUS_FORMAT}'\n`,
  );
  return 0;
}
