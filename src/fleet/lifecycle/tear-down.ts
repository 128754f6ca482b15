// The end of `down`, once every task has stopped: the keys fleetcom bound restored, its mark on
// the tmux server cleared, the capture namespaces and state.json removed.
import { removeNamespace } from '../../capture/namespace.js';
import { describeFsError, FleetError } from '../../errors.js';
import { removeFile } from '../../fs-safety.js';
import type { RuntimeFiles } from '../../paths.js';
import type { TmuxRun } from '../../tmux/runner.js';
import { restoreKey } from '../rerun/rerun-key.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { clearMark } from './supervisor-mark.js';

/** `down` only: bindings restored, namespaces and state.json removed (tasks already stopped). */
export async function tearDown(tmux: TmuxRun, files: RuntimeFiles, root: string, supervisor: Supervisor, keys: string[], log: (l: string) => void): Promise<void> {
  for (const key of keys) {
    if (key !== 'none') await restoreKey(tmux, key).catch((e: Error) => log(`could not restore the ${key} key: ${e.message}`));
  }
  await clearMark(tmux, files.socket).catch((e: Error) => log(`could not clear this supervisor's mark on the tmux server: ${e.message}`));
  for (const dir of supervisor.captureNamespaces()) removeNamespace(dir, root);
  try {
    removeFile(files.state);
  } catch (error) {
    throw new FleetError(`every task stopped, but ${files.state} could not be removed: ${describeFsError(error)}`);
  }
  log('fleet down');
}
