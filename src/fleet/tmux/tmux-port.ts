// The tmux operations the supervisor needs, as one interface: the real one is built on
// src/tmux; unit tests can pass a fake.
import type { PanePlace, TakeOverSpec } from '../../tmux/pane-places.js';

export type { PanePlace, TakeOverSpec };

export interface PaneInfo {
  paneId: string;
  windowId: string;
  /** The process ended and tmux reaped it: deadStatus / deadSignal say how. */
  dead: boolean;
  /**
   * The pane's pty closed but tmux has not reaped the process (tmux 3.3a misses a SIGCHLD
   * for about half of claude's exits): over, with a status nobody can know yet.
   */
  exited: boolean;
  /** null while alive, for a signal death, or when the status is unknown. */
  deadStatus: number | null;
  /** The signal that killed it, else null. */
  deadSignal: number | null;
  pid: number | null;
  /** The pane's terminal (`/dev/pts/N`), when tmux said. */
  tty?: string | null;
  /** ms since epoch of the window's last activity. */
  activity: number;
  /** The pane's title as the program in it last set it (OSC 0/2), when tmux said. */
  title?: string;
  task: string | null;
  run: string | null;
  socket: string | null;
  windowName: string | null;
}

export interface SpawnSpec {
  name: string;
  cwd: string;
  env: Record<string, string>;
  argv: string[];
  /** PATH for the tmux client process (tmux 3.3a ignores -e PATH). */
  path: string | undefined;
}

export type WindowSpec = SpawnSpec & { windowOptions: Record<string, string>; windowHooks: Record<string, string> };

export interface FleetTmux {
  globalEnvironment(): Promise<Record<string, string>>;
  /** Several windows in as few tmux calls as fit; per spec its window or the error. */
  newWindows(specs: WindowSpec[]): Promise<Array<{ windowId: string; paneId: string; panePid?: number | null; paneTty?: string | null } | Error>>;
  /**
   * respawn-pane -k, clearing the history in the same tmux call (no old hint survives); the new
   * process's pid and terminal come back from that call.
   */
  respawnPane(paneId: string, spec: Omit<SpawnSpec, 'name'>): Promise<{ panePid: number | null; paneTty: string | null }>;
  /** The pane's whole retained text (history and screen), wrapped lines joined. */
  retainedText(paneId: string): Promise<string>;
  listPanes(): Promise<PaneInfo[]>;
  /** One pane and its whole retained text, read together (one tmux call); null when it is gone. */
  endedPane(paneId: string): Promise<{ pane: PaneInfo; text: string } | null>;
  /** Makes tmux reap the children whose SIGCHLD it missed (it then runs their pane-died hooks). */
  reapChildren(): Promise<void>;
  /** The pid of each of these panes that is alive now, read by pane id (gone or dead: absent). */
  livePanePids(paneIds: readonly string[]): Promise<Map<string, number>>;
  setWindowOption(windowId: string, option: string, value: string): Promise<void>;
  unsetWindowOption(windowId: string, option: string): Promise<void>;
  /** Shows the window in a tmux client (by name), or makes it its session's current window. */
  showWindow(windowId: string, client: string | null): Promise<void>;
  /** Several window options in as few tmux calls as fit; a window that is gone is skipped. */
  setWindowOptions(options: Array<[windowId: string, option: string, value: string]>): Promise<void>;
  /** The task record each window of the server carries (`@fleetcom-spec`), by window id. */
  windowSpecs(): Promise<Map<string, string>>;
  renameWindow(windowId: string, name: string): Promise<void>;
  /** Several renames in as few tmux calls as fit; a window that is gone is skipped. */
  renameWindows(renames: Array<[windowId: string, name: string]>): Promise<void>;
  killWindow(windowId: string): Promise<void>;
  /** Every pane of the server and where it is, with the server's own socket (`#{socket_path}`), in one call. */
  panePlaces(): Promise<{ places: PanePlace[]; socket: string }>;
  /** A running pane becomes a task's window, its process left alone; its window and process after. */
  takeOverPane(spec: TakeOverSpec): Promise<{ windowId: string; panePid: number | null; paneTty: string | null }>;
  /** Several windows closed in as few tmux calls as fit (`down`: 200 tasks were 200 clients); one gone is skipped. */
  killWindows(windowIds: string[]): Promise<void>;
  /** Pastes a text into the pane as one paste (tmux/typing.ts): bracketed when the pane asked for it. */
  pasteText(paneId: string, text: string): Promise<void>;
  /** Keys by tmux's names (`Enter`). */
  sendKeys(paneId: string, ...keys: string[]): Promise<void>;
  /** The pane's visible screen and title, read together; null when it is gone. */
  paneScreen(paneId: string): Promise<{ text: string; title: string } | null>;
}

/** The pane's process is over: reaped, or its pty closed while tmux has not reaped it. */
export function isOver(pane: Pick<PaneInfo, 'dead' | 'exited'>): boolean {
  return pane.dead || pane.exited;
}
