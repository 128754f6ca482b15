import { owningId } from './conversation-of.js';
import { readTextFile } from './fs-read.js';
import { harnessFor } from './registry.js';
import type { Resolved, ResolveOptions, RunEvidence } from './types.js';

// Contract section 7 with the 8.2 amendment and 9.5: the first channel whose id is valid and
// resumable wins; an id that fails is skipped and the next channel is tried. An id named from
// outside the harness's own store readers (a hint, the id a task was started on) that is a
// child's stands for the conversation at its root, or for none; the capture and correlation
// readers return conversations of their own already.

/**
 * (1) the exit hint, (2) the capture file read now — or, for an adopted run fleetcom did not
 * start, the id its agent process's own traces named, (3) the pinned or targeted id, and (4)
 * store correlation, only when `opts.correlate` and the task has no pinned or targeted id and
 * was started by fleetcom.
 */
export function resolveId(evidence: RunEvidence, opts: ResolveOptions): Resolved | null {
  const harness = harnessFor(evidence.harness);
  const owner = (id: string | null): string | null => (harness.isId(id) ? owningId(evidence.harness, id, evidence) : null);
  const usable = (id: string | null): id is string => harness.isId(id) && harness.resumable(id, evidence);

  const hinted = owner(evidence.exitHint);
  if (usable(hinted)) return { id: hinted, source: 'exit-hint' };

  // The harness's own capture and correlation readers already apply its file checks.
  const captured = harness.captureId(evidence, opts.now);
  if (harness.isId(captured)) return { id: captured, source: 'capture' };

  const traced = owner(evidence.tracedId ?? null);
  if (usable(traced)) return { id: traced, source: 'process' };

  // Read once, and only for a check below that needs it (reached only when the capture named nothing usable).
  const needed = evidence.capturedBefore != null || harness.captureIsCurrent === true;
  const file = needed && evidence.captureFile !== null ? readTextFile(evidence.captureFile) : null;
  // The capture file is gone (swept with its namespace) or names no valid id (a payload that
  // fails the check says nothing of where the agent is): the id it named last, as recorded.
  const silent = file !== null && capturedNothing(evidence, file) && evidence.capturedBefore != null;
  const before = silent ? owner(evidence.capturedBefore ?? null) : null;
  if (usable(before)) return { id: before, source: 'capture' };

  const pinned = owner(evidence.pinnedId);
  if (usable(pinned) && !leftPinned(evidence, pinned, file)) return { id: pinned, source: 'pinned' };

  if (opts.correlate && evidence.pinnedId === null && evidence.handStarted !== true) {
    const excluded = new Set([...opts.heldByOthers, ...opts.everHeld]);
    const correlated = harness.correlate(evidence, { now: opts.now, excluded });
    if (harness.isId(correlated)) return { id: correlated, source: 'correlation' };
  }
  return null;
}

/**
 * Whether the agent's own capture says it moved on from its pinned conversation (a claude
 * `/clear` with nothing typed since): the newest conversation it names is another one, so the
 * pin is older than where the agent is, and resuming it would go back in time.
 */
function leftPinned(evidence: RunEvidence, pinned: string, file: ReturnType<typeof readTextFile> | null): boolean {
  const harness = harnessFor(evidence.harness);
  if (harness.captureIsCurrent !== true || file === null) return false;
  // A lost or silent file: the id recorded from it says where the agent was last.
  if (capturedNothing(evidence, file)) return harness.isId(evidence.capturedBefore ?? null) && evidence.capturedBefore !== pinned;
  const newest = harness.parseCapture(file.kind === 'text' ? file.text : '').at(-1);
  return newest !== undefined && harness.isId(newest) && newest !== pinned;
}

/** The capture file names no valid id: it is gone or unreadable, or holds nothing that passes the check. */
function capturedNothing(evidence: RunEvidence, file: ReturnType<typeof readTextFile>): boolean {
  return file.kind !== 'text' || harnessFor(evidence.harness).parseCapture(file.text).length === 0;
}
