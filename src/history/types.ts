import type { HarnessName, HistoryEntry } from '../harness/index.js';

// The rows `fleetcom history` shows: each conversation an agent's store holds, with where it
// came from and who has it open now.

/** An agent home to read: the store root its harness's home rule gives (opencode: its database). */
export interface AgentHome {
  agent: HarnessName;
  home: string;
}

/** Who has a conversation open: a task of this fleet, or another process. */
export type HeldBy = null | { task: number } | { pid: number };

export interface HistoryRow {
  agent: HarnessName;
  id: string;
  title: string;
  firstPrompt: string;
  /** ISO 8601. */
  updatedAt: string;
  messages: number | null;
  cwd: string;
  /** The agent home it came from (the resume runs with it). */
  home: string;
  heldBy: HeldBy;
}

/** A conversation as collected, before it is known who holds it. */
export interface Found extends HistoryEntry {
  agent: HarnessName;
  home: string;
  /** The store file it was read from (search reads it again). */
  file: string;
}

/** A store path left out, and why; `history` sums them up in one line. */
export interface Skipped {
  agent: HarnessName;
  path: string;
  why: string;
}
