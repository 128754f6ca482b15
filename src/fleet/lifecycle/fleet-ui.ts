// What the fleet loop offers a user interface and needs back from it. `up` passes the
// dashboard in (or none, headless), so the fleet layer never imports the dashboard.
import type { RemoteAttention } from '../attention/alerts.js';
import type { WorktreeStatus } from '../../worktree-record.js';
import type { ReplyTo, Request } from '../../control/protocol.js';
import type { AttentionState } from '../../harness/index.js';
import type { TmuxRun } from '../../tmux/runner.js';
import type { Task } from '../supervisor/task.js';

export interface FleetUiContext {
  tmux: TmuxRun;
  /** The fleet's tmux session id and the supervisor's own pane. */
  sessionId: string;
  pane: string;
  fleet: {
    tasks: () => Iterable<Task>; attention: (task: Task) => AttentionState; handle: <R extends Request>(request: R) => Promise<ReplyTo<R>>;
    /** A worktree's state as last read in the background (never a git call on a redraw). */
    worktreeStatus?: (path: string) => WorktreeStatus | null;
  };
  /** The `down` path; resolves when the fleet is gone. */
  quit: () => Promise<void>;
  /** The supervisor's environment, cwd (the fleet's directory) and HOME. */
  env: Record<string, string>;
  cwd: string;
  home: string;
  sessionDir: string;
  /** A private (0700) directory for scratch files. */
  scratchDir: string;
  now: () => number;
  log: (line: string) => void;
  /** A host's task as the dashboard's feed saw it, to the alert rules (with what it was before). */
  remoteAttention?: (task: RemoteAttention, previous: RemoteAttention['attention'] | undefined) => void;
}

export interface FleetUi {
  /** The fleet changed: redraw soon. */
  changed(): void;
  /** A log line of the supervisor. */
  log(line: string): void;
  /** Gives the terminal back. */
  close(): void;
}

export type StartUi = (context: FleetUiContext) => FleetUi;
