import type { SignalResult, TitleRule } from './attention.js';
import type {
  AgentDetection,
  ConversationOf,
  ConversationRoots,
  HarnessName,
  InstrumentInput,
  InstrumentPlan,
  RunEvidence,
  StoredConversation,
} from './types.js';
import type { AgentProbe } from './probe.js';
import type { HistoryReader } from './history.js';
import type { Conversing } from './conversing.js';

/** What store correlation (channel 4) needs beyond the run's own evidence. */
export interface CorrelationContext {
  now: number;
  /** Ids held by other tasks now (channels 1-3) and ids any task has ever held. */
  excluded: ReadonlySet<string>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Where an agent keeps its conversations, and the variables that move it. */
export interface HomeRule {
  /** The variables a recipe may set to locate the store (all listed in names.ts). */
  vars: readonly string[];
  /** The store root `env` gives the agent; throws when nothing locates it. */
  resolve(env: Env): string;
  /** The variables that, set on a launch, make `resolve` give `home` back. */
  varsFor(home: string): Record<string, string>;
  /** What each variable amounts to when unset, for this HOME: a recipe leaves those out. */
  defaults(userHome: string): Record<string, string>;
}

/** A file fleetcom writes into each capture namespace for this agent. */
export interface NamespaceAsset {
  file: string;
  mode: number;
  content: string;
}

/** How an agent's own signals say whether it works or waits (harness/attention.ts). */
export interface AttentionRule {
  /**
   * Signals arrive in the capture file itself (codex's notifier), in the events file beside it,
   * or nowhere (an agent whose title tells all: gemini).
   */
  file: 'capture' | 'events' | 'none';
  signal(payload: unknown): SignalResult;
  /**
   * codex: the conversation is the capture's (known once its store entry exists), and new
   * output after a finished turn means work, since no event says so.
   */
  conversationFromCapture: boolean;
  /**
   * What the pane's title (`#{pane_title}`, set by the agent's OSC 0/2) says: `read` maps it to
   * a state (null: not the agent's own title); `tells` is what it is trusted for — only the
   * approval prompt no event reports (codex), or every state (gemini, which sends no events);
   * `asking` is what a task shows while the title asks (it names no command).
   */
  title?: TitleRule;
}

/** What tells whether a conversation is open in some process now (ownership/). */
export type OwnershipProbe =
  | { kind: 'claude-registry' }
  /** The agent holds this file open for as long as the conversation runs (null: none exists). */
  | { kind: 'open-file'; file(home: string, id: string): string | null; looksLike(path: string): boolean }
  | { kind: 'none'; why: string };

/**
 * One agent CLI. Adding an agent means one new file implementing this, one entry in
 * `registry.ts` and its name in `names.ts`; everything shared (word rules, quoting, windows,
 * precedence, homes in recipes, doctor, ownership) is driven from here.
 */
export interface Harness {
  name: HarnessName;
  /** The words that name a conversation to resume; the first is the one a rewrite writes. */
  selectors: readonly string[];
  /** The agent's strict id check (section 1, or its own): every id spliced into a command passes it. */
  isId(value: unknown): value is string;
  /** How its ids look, for messages (`a lowercase 8-4-4-4-12 uuid`). */
  idShape: string;
  home: HomeRule;
  /** Files the capture namespace holds for this agent. */
  assets: readonly NamespaceAsset[];
  /** Spawn-time suffix, env pairs and pinned id. */
  instrument(detection: AgentDetection, input: InstrumentInput): InstrumentPlan;
  /** Ids named by a capture file's text, oldest first (before any file checks). */
  parseCapture(text: string): string[];
  /** Channel 2: the capture id after this agent's file checks (8.2/8.3), never a child's (9.5), or null. */
  /**
   * The capture file names the conversation the agent is in now (claude's SessionStart, also
   * after `/clear`), not one it merely touched: when that conversation cannot be resumed yet,
   * the pinned id is one the agent has left, never a fallback.
   */
  captureIsCurrent?: true;
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
  /** doctor: where `<agent> <resume> <id>` in `cwd` would look, and whether it finds a conversation. */
  stored(home: string, cwd: string, id: string): StoredConversation;
  ownership: OwnershipProbe;
  /** Its attention signals, when it has any. */
  attention: AttentionRule | null;
  /**
   * doctor: what in the agent's own settings under `home` (or the machine's, as `env` names them)
   * puts its conversations or its signals at risk.
   */
  warnings(home: string, env?: Readonly<Record<string, string | undefined>>): string[];
  /** `fleetcom adopt`: whether a process someone started by hand is this agent, and what its traces say. */
  probe: AgentProbe;
  /** `fleetcom history`: its conversations as its own store lists and titles them (none: not listed). */
  history?: HistoryReader;
  /** `send`, `wait` and `output`: how a message is typed into it, confirmed, and its reply read (conversing.ts). */
  conversing: Conversing;
}
