// An adoption's paths come from state.json (or the windows' records): claims that a damaged or
// planted record could point at any directory or file of the user's, and `down`, `rm` and
// `rerun` delete what they name. Only a namespace directly under this fleet's capture root is
// taken over, and only capture files directly in such a namespace are kept; anything else is
// reported and dropped (the task keeps running; it just reports no capture from that file).
// Deleting checks again (deleteCaptureFile, removeNamespace), whatever the source.
//
// The namespaces taken over are the one state.json names and those the kept capture files lie
// in: adopted tasks go on writing their captures where their first supervisor told them to,
// also when state.json is lost or names another (an adopter's own). Each must still be a
// directory of this user's that nobody else can write into, since the ids read from it are
// resumed: a capture file in one that is not is dropped too.
import { lstatSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isCaptureFileUnder, isNamespaceOf } from '../../capture/capture-names.js';
import { unsafeReason } from '../../fs-safety.js';
import type { Adopted } from '../supervisor/supervisor.js';

export function trustedPaths(adopted: Adopted, root: string, warn: (message: string) => void, uid = process.getuid?.()): Adopted {
  const namespaces = new Set<string>();
  const unsafe = new Set<string>();
  const consider = (dir: string) => {
    if (namespaces.has(dir) || unsafe.has(dir)) return;
    const why = namespaceProblem(dir, uid);
    if (why === null) namespaces.add(dir);
    else if (why !== 'gone') {
      unsafe.add(dir);
      warn(`ignoring the capture namespace ${dir} of an earlier supervisor: it ${why}`);
    }
  };
  for (const claimed of adopted.namespaces) {
    if (isNamespaceOf(root, claimed)) consider(resolve(claimed));
    else warn(`ignoring the capture namespace ${claimed} of the earlier supervisor: it is not a namespace in ${root}`);
  }
  const tasks = adopted.tasks.map((task) => {
    if (task.captureFile === null) return task;
    if (!isCaptureFileUnder(root, task.captureFile)) {
      warn(`task ${task.id}: ignoring its capture file ${task.captureFile}: it is not in a capture namespace in ${root}`);
      return { ...task, captureFile: null };
    }
    const file = resolve(task.captureFile);
    const dir = dirname(file);
    consider(dir);
    if (!unsafe.has(dir)) return { ...task, captureFile: file };
    warn(`task ${task.id}: ignoring its capture file ${task.captureFile}: its namespace is not safe`);
    return { ...task, captureFile: null };
  });
  return { ...adopted, tasks, namespaces: [...namespaces] };
}

/** Why a namespace cannot be taken over: 'gone' when it no longer exists, null when it can. */
function namespaceProblem(dir: string, uid: number | undefined): string | null {
  try {
    return unsafeReason(lstatSync(dir), uid);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : `cannot be inspected (${(error as Error).message})`;
  }
}
