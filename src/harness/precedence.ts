import { owningId } from './conversation-of.js';
import { harnessFor } from './registry.js';
import type { Resolved, ResolveOptions, RunEvidence } from './types.js';

// Contract section 7 with the 8.2 amendment and 9.5: the first channel whose id is valid and
// resumable wins; an id that fails is skipped and the next channel is tried. An id named from
// outside the harness's own store readers (a hint, the id a task was started on) that is a
// child's stands for the conversation at its root, or for none; the capture and correlation
// readers return conversations of their own already.

/**
 * (1) the exit hint, (2) the capture file read now, (3) the pinned or targeted id, and
 * (4) store correlation, only when `opts.correlate` and the task has no pinned or targeted id.
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

  const pinned = owner(evidence.pinnedId);
  if (usable(pinned)) return { id: pinned, source: 'pinned' };

  if (opts.correlate && evidence.pinnedId === null) {
    const excluded = new Set([...opts.heldByOthers, ...opts.everHeld]);
    const correlated = harness.correlate(evidence, { now: opts.now, excluded });
    if (harness.isId(correlated)) return { id: correlated, source: 'correlation' };
  }
  return null;
}
