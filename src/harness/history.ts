// What `fleetcom history` asks of each agent's store: the files that may hold conversations
// (listed and stat'd, never read), the conversations one file holds (bounded reads), and a
// streamed case-insensitive search. Pure: the home and the directories are passed in, and
// every read goes through fs-read.ts / history-read.ts (regular files only, non-blocking).

/** Which conversations are wanted: those of these directories (exact paths), or all. */
export type HistoryScope = { kind: 'all' } | { kind: 'dirs'; dirs: readonly string[] };

/**
 * A store file that may hold conversations, as listed: its path, size and mtime are the key of
 * the history cache (a file whose three are unchanged gives the same rows). For a store kept
 * in several files (opencode's database and its WAL) size and mtime cover all of them.
 */
export interface HistoryFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/** One conversation as the agent's store tells it. */
export interface HistoryEntry {
  /** The id the agent's resume form takes. */
  id: string;
  /** The agent's own title for it, in the agent's own order; else the first prompt. */
  title: string;
  /** The first message the user typed ('' when none could be read within the bounds). */
  firstPrompt: string;
  /** Last change, ms since the epoch (the store file's mtime, or the agent's own record). */
  updatedAt: number;
  /** User turns; null when counting them would mean reading the whole transcript. */
  messages: number | null;
  /** The directory the conversation runs in (the agent resumes it from there). */
  cwd: string;
}

/** A path left out, and why (a FIFO, a link to a device, unreadable, a torn record…). */
export interface HistorySkip {
  path: string;
  why: string;
}

export type HistoryRead = { kind: 'rows'; rows: HistoryEntry[] } | { kind: 'skipped'; why: string };

/** A conversation whose messages hold the searched text, with the text around it. */
export interface HistoryMatch {
  id: string;
  snippet: string;
}

export type HistorySearch = { kind: 'matches'; matches: HistoryMatch[] } | { kind: 'skipped'; why: string };

export interface HistoryReader {
  /**
   * The files under `home` that may hold conversations of `scope` (a hint: rows are still
   * filtered by their cwd afterwards). Child/subagent conversations are never listed.
   */
  files(home: string, scope: HistoryScope): { files: HistoryFile[]; skipped: HistorySkip[] };
  /** The conversations one listed file holds: bounded reads, whatever its size. */
  read(file: HistoryFile, home: string): HistoryRead;
  /** Titles the agent keeps beside its files (codex's session_index.jsonl), newest wins; applied over cached rows. */
  titles?(home: string): ReadonlyMap<string, string>;
  /** The conversations of one file whose user or agent messages hold `needle` (case-insensitive), streamed. */
  search(file: HistoryFile, home: string, needle: string): HistorySearch;
}
