import { isValidId } from './ids.js';
import { harnessFor } from './registry.js';
import type { Resolved, ResolveOptions, RunEvidence } from './types.js';

// Contract section 7 with the 8.2 amendment: the first channel whose id is valid and
// resumable wins; an id that fails is skipped and the next channel is tried.

/**
 * (1) the exit hint, (2) the capture file read now — or, for an adopted run fleetcom did not
 * start, the id its agent process's own traces named, (3) the pinned or targeted id, and (4)
 * store correlation, only when `opts.correlate` and the task has no pinned or targeted id and
 * was started by fleetcom.
 */
export function resolveId(evidence: RunEvidence, opts: ResolveOptions): Resolved | null {
  const harness = harnessFor(evidence.harness);
  const usable = (id: string | null): id is string => isValidId(id) && harness.resumable(id, evidence);

  if (usable(evidence.exitHint)) return { id: evidence.exitHint, source: 'exit-hint' };

  // The harness's own capture and correlation readers already apply its file checks.
  const captured = harness.captureId(evidence, opts.now);
  if (isValidId(captured)) return { id: captured, source: 'capture' };

  const traced = evidence.tracedId ?? null;
  if (usable(traced)) return { id: traced, source: 'process' };

  if (usable(evidence.pinnedId)) return { id: evidence.pinnedId, source: 'pinned' };

  if (opts.correlate && evidence.pinnedId === null && evidence.handStarted !== true) {
    const excluded = new Set([...opts.heldByOthers, ...opts.everHeld]);
    const correlated = harness.correlate(evidence, { now: opts.now, excluded });
    if (isValidId(correlated)) return { id: correlated, source: 'correlation' };
  }
  return null;
}
