import type {
  AgentDetection,
  HarnessName,
  InstrumentInput,
  InstrumentPlan,
  RunEvidence,
} from './types.js';
import type { AgentProbe } from './probe.js';

/** What store correlation (channel 4) needs beyond the run's own evidence. */
export interface CorrelationContext {
  now: number;
  /** Ids held by other tasks now (channels 1-3) and ids any task has ever held. */
  excluded: ReadonlySet<string>;
}

/**
 * One agent CLI. Adding a fourth agent means one new file implementing this and one line in
 * `registry.ts`; everything shared (word rules, quoting, windows, precedence) stays put.
 */
export interface Harness {
  name: HarnessName;
  /** The word (flag or subcommand) that names a conversation to resume. */
  selector: string;
  /** The environment variable naming its home, and the `$HOME` subdirectory otherwise. */
  homeVar: string;
  homeDir: string;
  /** Spawn-time suffix, env pairs and pinned id. */
  instrument(detection: AgentDetection, input: InstrumentInput): InstrumentPlan;
  /** Ids named by a capture file's text, oldest first (before any file checks). */
  parseCapture(text: string): string[];
  /** Channel 2: the capture id after this agent's file checks (8.2/8.3), or null. */
  captureId(evidence: RunEvidence, now: number): string | null;
  /** Channel 1: the last valid exit hint in retained terminal text, or null. */
  scrapeExit(text: string): string | null;
  /** Channel 4: exactly one matching store entry, or null. */
  correlate(evidence: RunEvidence, context: CorrelationContext): string | null;
  /** Whether a valid id can actually be resumed from this run's home (8.2 for claude). */
  resumable(id: string, evidence: RunEvidence): boolean;
  /** `fleetcom adopt`: whether a process someone started by hand is this agent, and what its traces say. */
  probe: AgentProbe;
}
