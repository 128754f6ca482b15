import type {
  AgentDetection,
  ConversationOf,
  ConversationRoots,
  HarnessName,
  InstrumentInput,
  InstrumentPlan,
  RunEvidence,
} from './types.js';

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
  /** Channel 2: the capture id after this agent's file checks (8.2/8.3), never a child's (9.5), or null. */
  captureId(evidence: RunEvidence, now: number): string | null;
  /** Channel 1: the last valid exit hint in retained terminal text, or null. */
  scrapeExit(text: string): string | null;
  /** Channel 4: exactly one matching store entry, never a child's (9.5), or null. */
  correlate(evidence: RunEvidence, context: CorrelationContext): string | null;
  /** Whether a valid id can actually be resumed from this run's home (8.2 for claude). */
  resumable(id: string, evidence: RunEvidence): boolean;
  /**
   * Which conversation a valid id belongs to (9.5): its own, or the user conversation at the
   * root of a child's (a subagent's), or none. An exit hint, and every id a command or record
   * already names, passes through here before it becomes a task's conversation.
   */
  conversationOf(id: string, roots: ConversationRoots): ConversationOf;
}
