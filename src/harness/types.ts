// The vocabulary of the resume core. Everything in src/harness is a function of strings,
// explicit paths, an explicit clock and explicit sets of other tasks' ids: it reads the agents'
// stores only under the roots it is given (fs-read.ts), and never process.env or os.homedir().

import type { HarnessName } from './names.js';

export type { AgentHomeVar, HarnessName } from './names.js';

/** How a requested command is treated. */
export type Detection =
  | { form: 'bare'; harness: HarnessName; program: string }
  | { form: 'resume'; harness: HarnessName; program: string; targetId: string }
  | { form: 'opaque'; harness: null; reason: string };

export type AgentDetection = Exclude<Detection, { form: 'opaque' }>;

/** Where codex's notify goes. */
export type CodexRoute =
  | { kind: 'vacant' }
  | { kind: 'chain'; argv: string[] }
  | { kind: 'opaque'; reason: string };

export interface InstrumentInput {
  detection: AgentDetection;
  /** The capture namespace directory `<root>/<pid>-<nonce>`. */
  namespace: string;
  /** `<namespace>/task-<id>-<run>.json`. */
  captureFile: string;
  /** Makes a fresh v4 id (injected so tests are deterministic). */
  newId: () => string;
  /** The agent's store root, resolved from the launching environment (harness `home`). */
  home: string;
  /** The launching environment (read, never changed): an agent merges with what the user set. */
  env: Readonly<Record<string, string | undefined>>;
  /** codex's notify route, when the caller already read it (explain); else codex reads it from home. */
  codexRoute?: CodexRoute;
}

export interface InstrumentPlan {
  /** Appended to the requested command; empty or starting with a space. */
  suffix: string;
  /** Environment pairs the task gets on top of the caller's. */
  env: Record<string, string>;
  /** The id a bare claude/grok is launched with, else null. */
  pinnedId: string | null;
  /** Whether the launch writes the capture file (false: the task has no channel 2). */
  captures: boolean;
}

/** Whether a conversation a recipe names can be resumed from the agent's own store (doctor). */
export type StoredConversation =
  | { found: true; path: string }
  | { found: false; path: string; why: string };

/** `process`: named by the hand-started agent process's own traces (an adopted run, harness/probe.ts). */
export type IdSource = 'exit-hint' | 'capture' | 'process' | 'pinned' | 'correlation';

/** What fleetcom knows about one run of one task, for resolving its conversation id. */
export interface RunEvidence {
  harness: HarnessName;
  cwd: string;
  /** Harness home resolved from the launching environment at spawn. */
  home: string;
  /** This run's capture file, or null when the task was not instrumented. */
  captureFile: string | null;
  /** Id scraped from the retained text after exit, or null. */
  exitHint: string | null;
  /** Id pinned at spawn (bare claude/grok) or named by a resume form, or null. */
  pinnedId: string | null;
  /** Spawn time of this run, ms since epoch. */
  spawnedAt: number;
  /** Exit time of this run, ms since epoch; null while running (then `now` is used). */
  endedAt: number | null;
  /** An adopted run: the id its agent process's own traces last named (harness/probe.ts). */
  tracedId?: string | null;
  /** The id the capture file named when last read, for when the file has been lost since. */
  capturedBefore?: string | null;
  /**
   * A run fleetcom did not start (an adopted hand-started agent): its start time says nothing
   * about which store entry is its own, so store correlation is never tried for it.
   */
  handStarted?: boolean;
}

export interface ResolveOptions {
  now: number;
  /** Try store correlation (channel 4): save and recovery only, never rerun or ls. */
  correlate: boolean;
  /** Ids other tasks of the fleet hold now through channels 1-3 (excluded from correlation). */
  heldByOthers: ReadonlySet<string>;
  /** Ids any task of the fleet has ever held (earlier runs, /clear): excluded from correlation. */
  everHeld: ReadonlySet<string>;
}

/** Where an agent's conversations are looked up: its home and the task's working directory. */
export interface ConversationRoots {
  home: string;
  cwd: string;
}

/**
 * Which conversation an id belongs to (contract 9.5: never a child's). `own`: the id is a
 * conversation of its own. `parent`: it names a child (a codex subagent thread) and `id` is
 * the user conversation at its root, which is resumed instead. `none`: a child whose root
 * cannot be resumed: the id is not resumable. `note` says which, for log lines and doctor.
 */
export type ConversationOf =
  | { kind: 'own'; id: string }
  | { kind: 'parent'; id: string; child: string; note: string }
  | { kind: 'none'; child: string; note: string };

export interface Resolved {
  id: string;
  source: IdSource;
}
