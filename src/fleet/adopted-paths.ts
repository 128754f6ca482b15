// An adoption's paths come from state.json (or the windows' records): claims that a damaged or
// planted record could point at any directory or file of the user's, and `down`, `rm` and
// `rerun` delete what they name. Only a namespace directly under this fleet's capture root is
// taken over, and only capture files directly in such a namespace are kept; anything else is
// reported and dropped (the task keeps running; it just reports no capture from that file).
// Deleting checks again (deleteCaptureFile, removeNamespace), whatever the source.
import { isCaptureFileUnder, isNamespaceOf } from '../capture/capture-names.js';
import type { Adopted } from './supervisor.js';

export function trustedPaths(adopted: Adopted, root: string, warn: (message: string) => void): Adopted {
  let namespace = adopted.namespace;
  if (namespace !== null && !isNamespaceOf(root, namespace)) {
    warn(`ignoring the capture namespace ${namespace} of the earlier supervisor: it is not a namespace in ${root}`);
    namespace = null;
  }
  const tasks = adopted.tasks.map((task) => {
    if (task.captureFile === null || isCaptureFileUnder(root, task.captureFile)) return task;
    warn(`task ${task.id}: ignoring its capture file ${task.captureFile}: it is not in a capture namespace in ${root}`);
    return { ...task, captureFile: null };
  });
  return { ...adopted, tasks, namespace };
}
